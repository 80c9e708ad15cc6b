package io.runnel.replicator;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A replicator's producer identity on the bus: a random id, and a message counter 1, 2, 3… that continues across
 * redials. A replicator starts with a new producer and takes another when its slot was lost ({@link SlotGuard}), so
 * consumers see a new producer exactly when what came before may not continue: a replicator that started (another
 * process, or a standby taking over) or WAL that was never decoded. Consumers detect lost messages as a hole in a
 * producer's {@code seq}, and a new producer as a gap.
 */
final class Producer {

  private final String id;
  private final AtomicLong seq = new AtomicLong();

  private Producer(String id) {
    this.id = id;
  }

  /** A new producer, with a new random id and its count at 0. */
  static Producer create() {
    return new Producer(newId());
  }

  private static String newId() {
    byte[] b = new byte[8];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  String id() {
    return id;
  }

  long nextSeq() {
    return seq.incrementAndGet();
  }

  /** The last seq handed out (0 before the first). */
  long peekSeq() {
    return seq.get();
  }

  /** Takes the next {@code n} seq numbers at once (the caller numbered them from {@link #peekSeq()} + 1). */
  void takeSeq(int n) {
    seq.addAndGet(n);
  }
}
