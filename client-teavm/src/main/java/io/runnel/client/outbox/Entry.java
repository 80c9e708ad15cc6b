package io.runnel.client.outbox;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.ObjectReader;
import io.runnel.wire.PercentEncoding;
import java.util.Objects;

/**
 * One queued write: what the outbox stores under its own key ({@code runnel.outbox.<principal>.<seq>}) and
 * replays, plus, in memory only, the pass that has a request out for it.
 *
 * <p>Stored as {@code {"v":"1","seq":"12","key":"likePost:<uuid>","mutator":"likePost","input":{…},
 * "createdAt":"<epoch ms>"}}; the numbers are digit strings, so reading them back needs no number parsing.
 */
final class Entry {

  private static final String PREFIX = "runnel.outbox.";

  /** The order within the principal's queue; assigned once the queue is loaded. */
  long seq;
  final String writeId;
  final String mutator;
  final JsonValue input;
  final long createdAt;
  /** The pass whose request for this entry is out, 0 when none is. */
  long sentInPass;
  /** Runs the local twin into the overlay under {@link #writeId}. */
  Runnable twin = () -> {};

  Entry(long seq, String writeId, String mutator, JsonValue input, long createdAt) {
    this.seq = seq;
    this.writeId = Objects.requireNonNull(writeId, "writeId");
    this.mutator = Objects.requireNonNull(mutator, "mutator");
    this.input = Objects.requireNonNull(input, "input");
    this.createdAt = createdAt;
  }

  /** The store-key prefix of every entry of {@code principal} ({@code ""} for an anonymous actor). */
  static String prefix(String principal) {
    return PREFIX + PercentEncoding.encode(principal) + ".";
  }

  /** This entry's store key under {@code principal}. */
  String storeKey(String principal) {
    return prefix(principal) + seq;
  }

  /** The stored form. */
  String write(JsonPort json) {
    return json.write(JsonObject.builder()
        .put("v", "1")
        .put("seq", Long.toString(seq))
        .put("key", writeId)
        .put("mutator", mutator)
        .put("input", input)
        .put("createdAt", Long.toString(createdAt))
        .build());
  }

  /**
   * Reads a stored entry back.
   *
   * @throws RuntimeException when {@code text} is not an entry this version wrote
   */
  static Entry read(String text, JsonPort json) {
    ObjectReader r = ObjectReader.of(json.parse(text), "");
    if (!"1".equals(r.text("v"))) {
      throw new IllegalArgumentException("Unknown outbox entry version");
    }
    Entry e = new Entry(Long.parseLong(r.text("seq")), r.text("key"), r.text("mutator"), r.value("input"),
        Long.parseLong(r.text("createdAt")));
    r.requireNoOtherMembers();
    return e;
  }

  @Override
  public String toString() {
    return "Entry[" + seq + " " + writeId + (sentInPass == 0 ? "" : " sent in pass " + sentInPass) + "]";
  }
}
