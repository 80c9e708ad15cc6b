package io.runnel.client.outbox.internal;

import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** The {@link Mutation} the outbox hands the page for one call, settled by the outbox once. */
final class Call implements Mutation {

  private final String writeId;
  private @Nullable MutationOutcome outcome;
  private final List<Consumer<MutationOutcome>> waiting = new ArrayList<>();

  Call(String writeId) {
    this.writeId = Objects.requireNonNull(writeId, "writeId");
  }

  @Override
  public String writeId() {
    return writeId;
  }

  @Override
  public @Nullable MutationOutcome outcome() {
    return outcome;
  }

  @Override
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
