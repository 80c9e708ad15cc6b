/**
 * Who a socket or an HTTP call is: the {@link io.runnel.sync.auth.Authenticator} port, its grants, a JWT
 * implementation (HS256 for development, RS256/ES256 from a JWKS URL), single-use tickets, and the
 * {@link io.runnel.sync.auth.GrantKeeper} that re-decides open sockets' grants over time.
 */
package io.runnel.sync.auth;
