package io.runnel.client.outbox.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.client.outbox.MutationError;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.OutboxState.FailedWrite;
import io.runnel.client.outbox.OutboxState.PendingWrite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** {@link OutboxState#same}, which the outbox uses instead of {@code equals}, agrees with {@code equals}. */
class OutboxStateSameTest {

  @Test
  void twoStatesAreTheSameExactlyWhenEqualsSaysSo() {
    PendingWrite p = new PendingWrite("w1", "like", 10, false);
    MutationError e = new MutationError("X_A", 409, "why", "fix");
    List<OutboxState> states = List.of(
        OutboxState.EMPTY,
        new OutboxState(List.of(), List.of()),
        new OutboxState(List.of(p), List.of()),
        new OutboxState(List.of(new PendingWrite("w1", "like", 10, false)), List.of()),
        new OutboxState(List.of(new PendingWrite("w2", "like", 10, false)), List.of()),
        new OutboxState(List.of(new PendingWrite("w1", "post", 10, false)), List.of()),
        new OutboxState(List.of(new PendingWrite("w1", "like", 11, false)), List.of()),
        new OutboxState(List.of(new PendingWrite("w1", "like", 10, true)), List.of()),
        new OutboxState(List.of(p, p), List.of()),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "like", e))),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "like", new MutationError("X_A", 409, "why", "fix")))),
        new OutboxState(List.of(), List.of(new FailedWrite("w2", "like", e))),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "post", e))),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "like", new MutationError("X_B", 409, "why", "fix")))),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "like", new MutationError("X_A", 400, "why", "fix")))),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "like", new MutationError("X_A", 409, "no", "fix")))),
        new OutboxState(List.of(), List.of(new FailedWrite("w1", "like", new MutationError("X_A", 409, "why", "no")))),
        new OutboxState(List.of(p), List.of(new FailedWrite("w1", "like", e))));
    List<Executable> checks = new ArrayList<>();
    for (OutboxState x : states) {
      for (OutboxState y : states) {
        checks.add(() -> assertEquals(x.equals(y), x.same(y), () -> x + " against " + y));
      }
    }
    assertAll(checks);
  }
}
