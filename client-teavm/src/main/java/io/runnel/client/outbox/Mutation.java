package io.runnel.client.outbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One call to a mutator, as the page awaits it: settled once, with the server's result or a failure. A call that
 * waits offline stays unsettled until the outbox replays it; a page reload loses the handle but not the call.
 */
public final class Mutation {

  private final String writeId;
  private @Nullable MutationOutcome outcome;
  private final List<Consumer<MutationOutcome>> waiting = new ArrayList<>();

  Mutation(String writeId) {
    this.writeId = Objects.requireNonNull(writeId, "writeId");
  }

  /** The write's id, which is also its idempotency key ({@code <mutator>:<uuid>}). */
  public String writeId() {
    return writeId;
  }

  /** How the call ended, or null while it is pending. */
  public @Nullable MutationOutcome outcome() {
    return outcome;
  }

  /** Calls {@code listener} once when the call settles, at once when it already has. */
  public void onSettled(Consumer<MutationOutcome> listener) {
    Objects.requireNonNull(listener, "listener");
    MutationOutcome done = outcome;
    if (done != null) {
      listener.accept(done);
    } else {
      waiting.add(listener);
    }
  }

  /** Settles the call; a second settle is ignored. */
  void settle(MutationOutcome result) {
    if (outcome != null) {
      return;
    }
    outcome = result;
    List<Consumer<MutationOutcome>> listeners = List.copyOf(waiting);
    waiting.clear();
    for (Consumer<MutationOutcome> l : listeners) {
      l.accept(result);
    }
  }

  @Override
  public String toString() {
    return "Mutation[" + writeId + (outcome == null ? " pending" : " " + outcome) + "]";
  }
}
