package io.runnel.client.outbox.internal;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.outbox.Credentials;
import io.runnel.dsl.MutatorRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** The outbox tests' own fakes: a recording overlay and rotating credentials (the ports' fakes are in {@code fake}). */
final class Fakes {

  private Fakes() {}

  /** Records what the outbox asks of the record store, one line per call. */
  static final class RecordingWrites implements OptimisticWrites {
    final List<String> log = new ArrayList<>();
    final List<String> sent = new ArrayList<>();

    @Override
    public void sending(String writeId) {
      sent.add(writeId);
    }

    @Override
    public <I> void apply(String writeId, MutatorRef<I> mutator, I input) {
      log.add("apply " + writeId + " " + mutator.codec().encode(input) + (mutator.local() == null ? " plain" : ""));
    }

    @Override
    public void answered(String writeId, String digest, String lsn) {
      log.add("answered " + writeId + " " + digest + " " + lsn);
    }

    @Override
    public void dropped(String writeId) {
      log.add("dropped " + writeId);
    }
  }

  /** Bearer tokens {@code t1}, {@code t2}, …: a refresh moves to the next. */
  static final class RotatingCredentials implements Credentials {
    int refreshes;

    @Override
    public void token(boolean refresh, Consumer<String> done) {
      if (refresh) {
        refreshes++;
      }
      done.accept("t" + (refreshes + 1));
    }
  }
}
