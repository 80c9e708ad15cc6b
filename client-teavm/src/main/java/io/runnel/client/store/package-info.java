/**
 * The page's record store: one record per {@code type:key}, synced truth (each record with the LSN it was read at)
 * under an optimistic overlay of pending writes that is replayed in order over every server update, plus the
 * settling of those writes ({@link io.runnel.client.OptimisticWrites}).
 */
package io.runnel.client.store;
