/**
 * The records a page reads ({@link io.runnel.client.store.ClientRecord}) and the refusals of the store (a record it
 * cannot read, a local twin that failed). The store itself is in {@code io.runnel.client.store.internal}.
 */
package io.runnel.client.store;
