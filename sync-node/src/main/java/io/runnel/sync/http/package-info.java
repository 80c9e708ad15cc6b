/**
 * The HTTP routes as an app configures them: the origins a browser may call from
 * ({@link io.runnel.sync.http.Origins}). The routes are in {@code io.runnel.sync.http.internal}.
 */
package io.runnel.sync.http;
