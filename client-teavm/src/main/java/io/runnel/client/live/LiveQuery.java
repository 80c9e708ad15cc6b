package io.runnel.client.live;

import java.util.function.Consumer;

/**
 * One live query as the page holds it: the node's list for the subscription, with the record store's overlay
 * applied (a pending write's records placed where the query's select puts them), observable by listeners;
 * {@link #release()} ends it.
 */
public interface LiveQuery {

  /** The subscription id on the socket ({@code q1}, {@code q2}, …), unique on the page. */
  String sid();

  /** What the query shows now. */
  QueryView view();

  /** Calls {@code listener} with the current view now and with every later one that differs; returns the undo. */
  Runnable listen(Consumer<QueryView> listener);

  /** Ends the subscription: the node is told, and records no other list holds are evicted; once only. */
  void release();
}
