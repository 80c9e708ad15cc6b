package io.runnel.replicator;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process's producer identity on the bus: one random id per process, and a message counter 1, 2, 3… that
 * continues across redials, so only a process restart is a new producer. Consumers detect lost messages as a hole
 * in a producer's {@code seq}.
 */
final class Producer {

  /** The process's producer. */
  static final Producer PROCESS = new Producer(newId());

  private final String id;
  private final AtomicLong seq = new AtomicLong();

  private Producer(String id) {
    this.id = id;
  }

  /** A producer of its own, with a new random id and its own count (the record publisher's). */
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
}
