package io.runnel.sync.channel.internal;

import io.runnel.protocol.PresenceMember;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One topic's presence: seats (one per socket that joined with a meta, on this node or, through the bus, another)
 * grouped under their presence keys. A key is in the roster while it has a seat. It shows the meta its seats set
 * last (last write wins), and {@code since} is when its oldest seat present joined; two tabs of one actor are one
 * member. Not thread-safe: its {@link Topic} guards it.
 *
 * <p>Another node's seat keeps the stamp of the last message applied to it, and a seat that left keeps its leave's
 * stamp for the presence TTL ({@link #fresh}, {@link #left}), so older messages of a seat are known as such.
 */
final class PresenceRoster {

  /** The stamp a seat left with, and when (epoch ms), kept for the presence TTL. */
  private record Left(long stamp, long at) {}

  /**
   * One socket's place: its key, meta, when it joined, the order its meta was set in, when it was heard, and (another
   * node's seat) the stamp of the last message applied to it, 0 for none.
   */
  private record Seat(String key, JsonObject meta, long since, long order, long heardAt, boolean local, long stamp) {}

  private static final Comparator<PresenceMember> OLDEST_FIRST =
      Comparator.comparingLong(PresenceMember::since).thenComparing(PresenceMember::key);

  private final Map<String, Seat> seats = new HashMap<>();
  private final Map<String, Left> left = new HashMap<>();
  private final Map<String, Map<String, Seat>> keys = new LinkedHashMap<>();
  private long order;

  /** The member {@code key} shows now, or null when it has no seat. */
  @Nullable PresenceMember member(String key) {
    Map<String, Seat> of = keys.get(key);
    if (of == null) {
      return null;
    }
    Seat latest = null;
    long since = Long.MAX_VALUE;
    for (Seat s : of.values()) {
      if (latest == null || s.order() > latest.order()) {
        latest = s;
      }
      since = Math.min(since, s.since());
    }
    return latest == null ? null : new PresenceMember(key, latest.meta(), since);
  }

  /**
   * Seats {@code seat} under {@code key} with {@code meta}, or, when it is seated already, sets its meta (a changed
   * meta becomes the key's) and marks it heard.
   *
   * @param since when the seat joined, epoch ms (kept when the seat was already seated)
   * @param local whether the seat is this node's (only local seats time out here)
   * @param stamp the stamp of the message that seats another node's seat ({@link #fresh}), 0 for none; the seat keeps
   *     the highest it was given
   * @return the key whose member may have changed
   */
  String seat(String seat, String key, JsonObject meta, long since, long now, boolean local, long stamp) {
    Seat old = seats.get(seat);
    long kept = Math.max(stamp, old == null ? 0 : old.stamp());
    if (old != null && !old.key().equals(key)) {
      unseat(seat);
      old = null;
    }
    Seat next;
    if (old == null) {
      next = new Seat(key, meta, since, ++order, now, local, kept);
    } else if (old.meta().equals(meta)) {
      next = new Seat(key, meta, old.since(), old.order(), now, local, kept);
    } else {
      next = new Seat(key, meta, old.since(), ++order, now, local, kept);
    }
    seats.put(seat, next);
    keys.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(seat, next);
    return key;
  }

  /**
   * Whether a message of another node's {@code seat} stamped {@code stamp} is newer than every message of that seat
   * applied here, its leave included; a message without a stamp (0) always is.
   */
  boolean fresh(String seat, long stamp) {
    if (stamp == 0) {
      return true;
    }
    Seat seated = seats.get(seat);
    Left gone = left.get(seat);
    return (seated == null || stamp > seated.stamp()) && (gone == null || stamp > gone.stamp());
  }

  /** Another node's {@code seat} left with {@code stamp} at {@code now} (it may never have been seated here). */
  void left(String seat, long stamp, long now) {
    unseat(seat);
    if (stamp != 0) {
      left.put(seat, new Left(stamp, now));
    }
  }

  /** Forgets the leaves older than {@code before} (epoch ms): no message of theirs is still on its way. */
  void forgetLeftBefore(long before) {
    left.values().removeIf(l -> l.at() < before);
  }

  /** Whether {@code seat} is seated. */
  boolean seated(String seat) {
    return seats.containsKey(seat);
  }

  /** The key {@code seat} is seated under, or null. */
  @Nullable String keyOf(String seat) {
    Seat s = seats.get(seat);
    return s == null ? null : s.key();
  }

  /** Marks {@code seat} heard at {@code now}; false when it is not seated. */
  boolean heard(String seat, long now) {
    Seat s = seats.get(seat);
    if (s == null) {
      return false;
    }
    Seat next = new Seat(s.key(), s.meta(), s.since(), s.order(), now, s.local(), s.stamp());
    seats.put(seat, next);
    Objects.requireNonNull(keys.get(s.key()), "a seat's key").put(seat, next);
    return true;
  }

  /** Removes {@code seat}; returns its key, or null when it was not seated. */
  @Nullable String unseat(String seat) {
    Seat s = seats.remove(seat);
    if (s == null) {
      return null;
    }
    Map<String, Seat> of = Objects.requireNonNull(keys.get(s.key()), "a seat's key");
    of.remove(seat);
    if (of.isEmpty()) {
      keys.remove(s.key());
    }
    return s.key();
  }

  /** One of this node's seats as the other nodes are told of it, with the stamp of this telling. */
  record LocalSeat(String seat, String key, JsonObject meta, long since, long stamp) {}

  /** This node's seats, to announce to the other nodes, each stamped by {@code stamps}. */
  List<LocalSeat> localSeats(LongSupplier stamps) {
    List<LocalSeat> out = new ArrayList<>();
    seats.forEach((id, s) -> {
      if (s.local()) {
        out.add(new LocalSeat(id, s.key(), s.meta(), s.since(), stamps.getAsLong()));
      }
    });
    return out;
  }

  /**
   * The seats last heard before {@code before} (epoch ms): this node's when {@code local}, else the other nodes'
   * (heard when their node announced them).
   */
  List<String> silentSince(long before, boolean local) {
    List<String> out = new ArrayList<>();
    seats.forEach((id, s) -> {
      if (s.local() == local && s.heardAt() < before) {
        out.add(id);
      }
    });
    return out;
  }

  /** At most {@code limit} members, oldest first (then by key). */
  List<PresenceMember> members(int limit) {
    List<PresenceMember> all = new ArrayList<>(keys.size());
    for (String key : keys.keySet()) {
      all.add(member(key));
    }
    all.sort(OLDEST_FIRST);
    return all.size() <= limit ? all : all.subList(0, limit);
  }

  /** How many members (keys) the roster has. */
  int total() {
    return keys.size();
  }
}
