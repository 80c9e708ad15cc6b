package io.runnel.sync.auth;

import io.runnel.dsl.Actor;
import java.util.Objects;

/**
 * What an authenticator decided: the actor, and until when the decision holds.
 *
 * @param actor who it is
 * @param expiresAt epoch milliseconds after which the grant must be decided again
 */
public record Grant(Actor actor, long expiresAt) {

  /** Checks the actor is given. */
  public Grant {
    Objects.requireNonNull(actor, "actor");
  }
}
