/**
 * Live queries as the page holds them: each {@link io.runnel.client.live.LiveQuery} shows its records in query order
 * ({@link io.runnel.client.live.QueryView}), optimistic records placed by the query's own select, in a
 * {@link io.runnel.client.live.QueryState}; a node's refusal of the socket is a
 * {@link io.runnel.client.live.NodeRefusedException}. The socket's client side is in
 * {@code io.runnel.client.live.internal}.
 */
package io.runnel.client.live;
