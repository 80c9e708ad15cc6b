package io.runnel.sync.channel.internal;

import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.sync.socket.internal.FrameCodec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One records topic's numbering on this node: its epoch (16 random hex, new when the topic is created and at every
 * gap the whole topic takes), the last {@code seq} sent in it, and a ring of the latest frames (at most
 * {@link #RING_FRAMES}, within the node's {@link Budget}) that a join with a cursor of this epoch is replayed from.
 * Not thread-safe: its {@link Topic} calls it under the topic's lock.
 */
final class RecordsLog {

  /** The most frames a topic keeps for replay. */
  static final int RING_FRAMES = 256;

  /** The most ops one frame carries; a transaction with more for one topic sends {@code gap} instead. */
  static final int MAX_FRAME_OPS = 1_000;

  /** The longest frame text (characters); a longer one sends {@code gap} instead. */
  static final int MAX_FRAME_CHARS = 256 * 1024;

  /** The node's budget for every topic's ring, in characters of frame text. */
  static final class Budget {
    private final long max;
    private final AtomicLong used = new AtomicLong();

    /** @param max the most characters all rings may keep together */
    Budget(long max) {
      this.max = max;
    }

    boolean over() {
      return used.get() > max;
    }

    long used() {
      return used.get();
    }
  }

  private record Kept(long seq, String text) {}

  private final String topic;
  private final Budget budget;
  private final ArrayDeque<Kept> ring = new ArrayDeque<>();
  private String epoch = newEpoch();
  private long seq;
  /** Frames after this seq are all in the ring. */
  private long floor;

  RecordsLog(String topic, Budget budget) {
    this.topic = topic;
    this.budget = budget;
  }

  String epoch() {
    return epoch;
  }

  long seq() {
    return seq;
  }

  /**
   * Numbers and keeps the next frame: {@code ops} of the transaction at {@code lsn}, carrying {@code writes}.
   *
   * @return its text, or null when it is over {@link #MAX_FRAME_OPS} or {@link #MAX_FRAME_CHARS} (nothing was
   *     numbered: the caller restarts the topic, which sends {@code gap})
   */
  @Nullable String append(Position lsn, List<Op> ops, List<String> writes) {
    if (ops.size() > MAX_FRAME_OPS) {
      return null;
    }
    String text = FrameCodec.encode(new ServerFrame.Records(topic, epoch, seq + 1, lsn, ops, writes));
    if (text.length() > MAX_FRAME_CHARS) {
      return null;
    }
    seq++;
    ring.addLast(new Kept(seq, text));
    budget.used.addAndGet(text.length());
    while (!ring.isEmpty() && (ring.size() > RING_FRAMES || budget.over())) {
      Kept oldest = ring.removeFirst();
      budget.used.addAndGet(-oldest.text().length());
      floor = oldest.seq();
    }
    return text;
  }

  /**
   * The frames a join with {@code cursor} missed, when it can be replayed: its epoch is this one, and its seq is at
   * most the last sent and at least the ring's floor.
   *
   * @return the frames after the cursor, oldest first (empty when it missed nothing), or null when the member must
   *     be sent {@code gap} (no cursor, another epoch, too old, or from the future)
   */
  @Nullable List<String> since(@Nullable TopicCursor cursor) {
    if (cursor == null || !cursor.epoch().equals(epoch) || cursor.seq() > seq || cursor.seq() < floor) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (Iterator<Kept> it = ring.iterator(); it.hasNext(); ) {
      Kept k = it.next();
      if (k.seq() > cursor.seq()) {
        out.add(k.text());
      }
    }
    return out;
  }

  /** A new epoch: seq starts again from 1 and the ring is emptied, so no cursor of the old one replays. */
  void restart() {
    clear();
    epoch = newEpoch();
    seq = 0;
    floor = 0;
  }

  /** The text of {@code gap} for this topic's epoch now. */
  String gap() {
    return FrameCodec.encode(new ServerFrame.Gap(topic, epoch));
  }

  /** The topic left the node: its ring goes back to the budget. */
  void clear() {
    for (Kept k : ring) {
      budget.used.addAndGet(-k.text().length());
    }
    ring.clear();
    floor = seq;
  }

  private static String newEpoch() {
    return String.format("%016x", ThreadLocalRandom.current().nextLong());
  }
}
