/**
 * The client's browser side: the package that calls into JavaScript (the entry classes only export). It implements
 * what the plain Java logic asks of its host (sockets, fetch, a durable store on IndexedDB with a capped
 * localStorage fallback, Web Locks and a BroadcastChannel between tabs, the page's online, offline and visibility
 * events, timers, ids, JSON and number text), and
 * {@link io.runnel.client.browser.JsClient}, the object a bundle's {@code connect} answers to the page.
 */
package io.runnel.client.browser;
