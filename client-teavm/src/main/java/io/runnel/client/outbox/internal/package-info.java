/**
 * Writes from the page: {@link io.runnel.client.outbox.internal.Outbox#mutate} runs a mutator's local twin into the
 * optimistic overlay and calls the mutator over HTTP under an idempotency key; a write that finds no network waits
 * in a durable per-principal outbox and is replayed in order, under its original key, when the network returns; a
 * call made before any actor is known waits in a provisional queue that joins the first online actor's. The tabs of
 * one origin share the queues: one tab at a time drains a principal's queue, and every tab hears each outcome.
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.client.outbox.internal;
