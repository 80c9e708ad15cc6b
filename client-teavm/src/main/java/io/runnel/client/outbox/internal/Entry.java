package io.runnel.client.outbox.internal;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.Digits;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One queued write: what the outbox stores under its own key ({@code runnel.outbox.<principal>.<seq>.<write id>},
 * or {@code runnel.outbox.!provisional.<seq>.<write id>} before any actor is known) and replays, plus, in memory
 * only, the pass that has a request out for it.
 *
 * <p>The key holds the write id, so two tabs that store a call in the same millisecond never write one key; the
 * {@code seq} orders a queue across tabs: each tab gives a new entry {@code max(next, now ms × 1000)}, so it is
 * monotonic in each tab and roughly the call time across tabs, and entries sort by {@code (seq, write id)}
 * ({@link #before}).
 *
 * <p>Stored as {@code {"v":"2","seq":"1700000000000000","key":"likePost:<uuid>","mutator":"likePost","input":{…},
 * "createdAt":"<epoch ms>"}}; the numbers are digit strings, so reading them back needs no number parsing.
 */
final class Entry {

  static final String PREFIX = "runnel.outbox.";
  private static final String HEX = "0123456789ABCDEF";

  /** The order within the principal's queue (with the write id); assigned once the queue is loaded. */
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

  /**
   * The store-key prefix of the provisional queue's entries: {@code !} is never part of an escaped principal, so no
   * principal's prefix is this one.
   */
  static final String PROVISIONAL_PREFIX = PREFIX + "!provisional.";

  /** The store-key prefix of every entry of {@code principal} ({@code ""} for an anonymous actor). */
  static String prefix(String principal) {
    return PREFIX + escape(principal) + ".";
  }

  /**
   * {@code principal} with every character other than {@code A–Z a–z 0–9 - _ ~} written as {@code %} and four hex
   * digits of its UTF-16 unit: one-to-one, and never a {@code .}, so no principal's prefix is another's. (Not
   * {@code PercentEncoding}: its UTF-8 encoder pulls charset classes into the bundle.)
   */
  static String escape(String principal) {
    StringBuilder out = new StringBuilder(principal.length());
    for (int i = 0; i < principal.length(); i++) {
      char c = principal.charAt(i);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '~';
      if (plain) {
        out.append(c);
      } else {
        out.append('%');
        for (int shift = 12; shift >= 0; shift -= 4) {
          out.append(HEX.charAt((c >> shift) & 0xf));
        }
      }
    }
    return out.toString();
  }

  /** The stored form. */
  String write(JsonPort json) {
    return json.write(JsonObject.builder()
        .put("v", "2")
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
    if (!(json.parse(text) instanceof JsonObject o) || o.size() != 6 || !"2".equals(text(o, "v"))) {
      throw new IllegalArgumentException("Not an outbox entry of version 2");
    }
    JsonValue input = o.get("input");
    if (input == null) {
      throw new IllegalArgumentException("An outbox entry without input");
    }
    return new Entry(Digits.parseLong(text(o, "seq")), text(o, "key"), text(o, "mutator"), input,
        Digits.parseLong(text(o, "createdAt")));
  }

  /** Whether {@code a} goes before {@code b} in a queue: by seq, then by write id. */
  static boolean before(Entry a, Entry b) {
    return a.seq < b.seq || (a.seq == b.seq && a.writeId.compareTo(b.writeId) < 0);
  }

  /** The entry of write {@code writeId} in {@code entries}, or null. */
  static @Nullable Entry find(List<Entry> entries, String writeId) {
    for (Entry e : entries) {
      if (e.writeId.equals(writeId)) {
        return e;
      }
    }
    return null;
  }

  private static String text(JsonObject o, String name) {
    if (o.get(name) instanceof JsonString s) {
      return s.value();
    }
    throw new IllegalArgumentException("Outbox entry member '" + name + "' is not a string");
  }

  @Override
  public String toString() {
    return "Entry[" + seq + " " + writeId + (sentInPass == 0 ? "" : " sent in pass " + sentInPass) + "]";
  }
}
