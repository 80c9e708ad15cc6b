/**
 * The page's record store: one record per {@code type:key}, synced truth (each record with the LSN it was read at)
 * under an optimistic overlay of pending writes that is replayed in order over every server update, plus the
 * settling of those writes ({@link io.runnel.client.OptimisticWrites}).
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.client.store.internal;
