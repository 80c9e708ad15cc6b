/**
 * Who a socket or an HTTP call is: the {@link io.runnel.sync.auth.Authenticator} port, its grants, and a JWT
 * implementation (HS256 for development, RS256/ES256 from a JWKS URL).
 */
package io.runnel.sync.auth;
