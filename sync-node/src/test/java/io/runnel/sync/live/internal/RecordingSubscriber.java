package io.runnel.sync.live.internal;

import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A subscriber that records every frame and rebuilds each subscription's list from the frames alone, the way a
 * client does: a snapshot replaces the list, ops apply in sequence.
 */
final class RecordingSubscriber implements LiveSubscriber {

  /**
   * One subscription's state as its frames built it. Tests read it from their own thread while the node's thread
   * writes it: each frame is recorded first and counted last, in volatile counters, so a test that saw a count sees
   * that frame's record, list and cursor too.
   */
  static final class Stream {
    final List<WireRecord> list = new ArrayList<>();
    final List<String> frames = new CopyOnWriteArrayList<>();
    volatile int snapshots;
    volatile int patches;
    volatile Cursor cursor;
    volatile RunnelException refusal;
    volatile String error;
  }

  private final Map<String, Stream> streams = Collections.synchronizedMap(new LinkedHashMap<>());

  Stream stream(String sid) {
    return streams.computeIfAbsent(sid, s -> new Stream());
  }

  /** Starts {@code sid} holding {@code records}, as a client resuming with them. */
  void holding(String sid, List<WireRecord> records) {
    Stream s = stream(sid);
    synchronized (s) {
      s.list.clear();
      s.list.addAll(records);
    }
  }

  /** A copy of the list of {@code sid}. */
  List<WireRecord> list(String sid) {
    Stream s = stream(sid);
    synchronized (s) {
      return List.copyOf(s.list);
    }
  }

  @Override
  public void snapshot(String sid, List<WireRecord> records, Cursor cursor) {
    Stream s = stream(sid);
    synchronized (s) {
      s.list.clear();
      s.list.addAll(records);
      s.cursor = cursor;
      s.frames.add("snapshot " + records.size() + " @" + cursor.lsn());
      s.snapshots++;
    }
  }

  @Override
  public void patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) {
    Stream s = stream(sid);
    synchronized (s) {
      s.frames.add("patch " + ops + " @" + cursor.lsn());
      if (s.cursor != null && cursor.lsn().compareTo(s.cursor.lsn()) < 0) {
        s.error = "the cursor moved back from " + s.cursor.lsn() + " to " + cursor.lsn();
      }
      s.cursor = cursor;
      if (ops.isEmpty() && !(s.patches == 0 && s.snapshots == 0)) {
        s.error = "an empty patch was sent other than as a resume's only answer (it leaks timing)";
      }
      for (Op op : ops) {
        apply(s, op);
      }
      s.patches++;
    }
  }

  private static void apply(Stream s, Op op) {
    switch (op) {
      case Op.Del d -> {
        if (!s.list.removeIf(r -> r.key().equals(d.key()))) {
          s.error = "del of " + d.key() + ", which the list does not hold";
        }
      }
      case Op.Update u -> {
        int at = indexOf(s.list, u.record().key());
        if (at < 0) {
          s.error = "in-place put of " + u.record().key() + ", which the list does not hold";
          return;
        }
        s.list.set(at, u.record());
      }
      case Op.Place p -> {
        int at = indexOf(s.list, p.record().key());
        if (at >= 0) {
          s.list.remove(at);
        }
        if (p.after() == null) {
          s.list.add(0, p.record());
        } else {
          int prev = indexOf(s.list, p.after());
          if (prev < 0) {
            s.error = "put after " + p.after() + ", which the list does not hold";
            return;
          }
          s.list.add(prev + 1, p.record());
        }
      }
    }
  }

  private static int indexOf(List<WireRecord> list, String key) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).key().equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public void refuse(String sid, RunnelException error) {
    Stream s = stream(sid);
    synchronized (s) {
      s.frames.add("refuse " + error.code());
      s.refusal = error;
    }
  }
}
