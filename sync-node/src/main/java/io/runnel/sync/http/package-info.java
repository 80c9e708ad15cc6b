/**
 * The sync node's HTTP routes besides the socket: mutator calls with idempotency keys ({@code POST /v1/mutate}),
 * one-shot reads ({@code GET /v1/query}), tickets, and the origin and CORS rules they share.
 */
package io.runnel.sync.http;
