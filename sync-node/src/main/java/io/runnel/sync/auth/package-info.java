/**
 * Who a socket or an HTTP call is: the {@link io.runnel.sync.auth.Authenticator} port, its grants, a JWT
 * implementation (HS256 for development, RS256/ES256 from a JWKS URL) and single-use tickets with their stores.
 * The grant keeper, which decides open sockets' grants again over time, is in {@code io.runnel.sync.auth.internal}.
 */
package io.runnel.sync.auth;
