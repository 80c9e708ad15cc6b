/**
 * The sync node's HTTP routes besides the socket: mutator calls with idempotency keys ({@code POST /v1/mutate}),
 * one-shot reads ({@code GET /v1/query}), tickets, the CORS rules they share, request ids, and the coded bodies of
 * the refusals Helidon answers before any route runs ({@link io.runnel.sync.http.internal.ErrorBodies}).
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.http.internal;
