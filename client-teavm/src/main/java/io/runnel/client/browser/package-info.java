/**
 * The client's browser side: the package that calls into JavaScript (the entry classes only export). It implements
 * what the plain Java logic asks of its host (sockets, fetch, localStorage, timers, ids, JSON and number text), and
 * {@link io.runnel.client.browser.JsClient}, the object a bundle's {@code connect} answers to the page.
 */
package io.runnel.client.browser;
