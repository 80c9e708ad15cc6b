package io.runnel.client.live;

import java.util.Objects;

/** Where a live query stands: waiting for its first list, ready, or refused. */
public sealed interface QueryState permits QueryState.Pending, QueryState.Ready, QueryState.Failed {

  /** No list yet (or the principal changed and a new one is on its way). */
  record Pending() implements QueryState {}

  /** The list is the node's, with the overlay applied. */
  record Ready() implements QueryState {}

  /**
   * The node refused the subscription.
   *
   * @param code the error code ({@code X_…})
   * @param cause what happened
   * @param fix what to do
   */
  record Failed(String code, String cause, String fix) implements QueryState {
    /** Checks the parts are given. */
    public Failed {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(fix, "fix");
    }
  }
}
