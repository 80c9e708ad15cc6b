package io.runnel.client.outbox;

import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One call to a mutator, as the page awaits it: settled once, with the server's result or a failure. A call that
 * waits offline stays unsettled until the outbox replays it; a page reload loses the handle but not the call.
 */
public interface Mutation {

  /** The write's id, which is also its idempotency key ({@code <mutator>:<uuid>}). */
  String writeId();

  /** How the call ended, or null while it is pending. */
  @Nullable MutationOutcome outcome();

  /** Calls {@code listener} once when the call settles, at once when it already has. */
  void onSettled(Consumer<MutationOutcome> listener);
}
