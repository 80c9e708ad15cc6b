package io.runnel.sync.channel.internal;

import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.ChannelMessage;
import io.runnel.sync.socket.internal.FrameCodec;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One topic the node holds: its member sockets, its presence roster, and the roster changes not yet sent. Every
 * method runs under the topic's lock, so a topic's frames leave in one order and a member's first frame after its
 * join is its roster.
 *
 * <p>Diffs are coalesced: changes mark their key dirty with the key's member as it was at the last flush, and a
 * flush (at most every {@link #DIFF_INTERVAL_MS}) sends each member what changed since what it was last shown. A
 * member shown the roster before the last flush gets one shared frame (keys whose member differs from the last
 * flush); a member that joined since gets only the keys changed after its roster. A member whose roster or diff was
 * dropped gets no diffs until its queue drains, and then a whole roster ({@link #repair}).
 *
 * <p>A topic of a records channel also numbers its {@code records} frames ({@link RecordsLog}: epoch, seq, a ring
 * for replay). A member whose records frame was dropped gets no more of them until its queue drains, and then
 * {@code gap}; a gap of the whole topic (a bus gap, a bulk change, an old row whose params are unknown) starts a new
 * epoch and sends {@code gap} to every member.
 */
final class Topic {

  /** The shortest spell between two diffs of one topic, milliseconds. */
  static final long DIFF_INTERVAL_MS = 250;

  /** The most members a roster lists ({@code docs/protocol.md}: {@code presence}). */
  static final int ROSTER_MEMBERS = 256;

  /**
   * What a topic counts into its hub's stats.
   *
   * @param dropped frames lost to full queues
   * @param records records frames queued
   * @param gaps gap frames queued
   */
  record Counts(LongAdder dropped, LongAdder records, LongAdder gaps) {
    /** Fresh counters. */
    Counts() {
      this(new LongAdder(), new LongAdder(), new LongAdder());
    }
  }

  /**
   * One member socket: the roster version it was last shown, whether a frame of presence was dropped, and whether
   * a records frame was (it is owed a {@code gap}).
   */
  private static final class Membership {
    final ChannelMember member;
    long shown;
    boolean stale;
    boolean recordsLost;

    Membership(ChannelMember member) {
      this.member = member;
    }
  }

  /** A dirty key: its member at the last flush (null: absent) and the version of its latest change. */
  private record Dirty(@Nullable PresenceMember flushed, long version) {}

  final ResolvedTopic resolved;
  /** Members plus joins in flight; changed only inside the hub's topic table's compute. */
  int claims;
  private final LongAdder dropped;
  private final Counts counts;
  private final LongSupplier stamps;
  /** The records numbering, or null when the channel carries no records. */
  private final @Nullable RecordsLog log;
  private final Map<String, Membership> members = new LinkedHashMap<>();
  private final PresenceRoster roster = new PresenceRoster();
  private final Map<String, Dirty> dirty = new LinkedHashMap<>();
  private long version;
  private long flushedVersion;
  private long flushedAt = Long.MIN_VALUE / 2;
  private @Nullable Runnable listening;
  private boolean subscribing;
  private boolean closed;

  /**
   * @param stamps the node's seat stamps ({@link ChannelMessage}), rising; taken under this topic's lock
   */
  Topic(ResolvedTopic resolved, Counts counts, RecordsLog.Budget budget, LongSupplier stamps) {
    this.resolved = resolved;
    this.stamps = stamps;
    this.counts = counts;
    this.dropped = counts.dropped();
    this.log = resolved.channel().records().isEmpty() ? null : new RecordsLog(resolved.topic(), budget);
  }

  String name() {
    return resolved.topic();
  }

  /**
   * Listens on {@code bus} for other nodes' messages of this topic, unless already listening (or subscribing), or
   * closed.
   *
   * @return true when it started listening now (the node is to ask the others for their seats)
   * @throws ChannelException as {@link ChannelBus#listen} ({@code X_TRANSPORT_UNAVAILABLE}: the topic stays deaf)
   */
  boolean listen(ChannelBus bus, Consumer<ChannelMessage> handler) {
    synchronized (this) {
      if (listening != null || subscribing || closed) {
        return false;
      }
      subscribing = true;
    }
    // Outside the lock: a subscription across nodes may wait for the bus, and events and diffs go on meanwhile.
    Runnable handle;
    try {
      handle = bus.listen(name(), handler);
    } catch (RuntimeException e) {
      synchronized (this) {
        subscribing = false;
      }
      throw e;
    }
    synchronized (this) {
      subscribing = false;
      if (!closed) {
        listening = handle;
        return true;
      }
    }
    handle.run();
    return false;
  }

  /** Whether the topic is open and holds no subscription to the bus (the bus was down when it tried). */
  synchronized boolean deaf() {
    return listening == null && !subscribing && !closed;
  }

  /** Whether the channel carries records. */
  boolean carriesRecords() {
    return log != null;
  }

  /** The topic left the node: stops listening, and its ring goes back to the node's budget. */
  synchronized void close() {
    closed = true;
    if (log != null) {
      log.clear();
    }
    if (listening != null) {
      listening.run();
      listening = null;
    }
  }

  /**
   * Adds {@code member}, seats it when {@code meta} is given, and sends it the roster; on a records channel then
   * the frames its {@code cursor} missed when this node still has them all in the cursor's epoch, else {@code gap}.
   *
   * @return the seat's stamp when it was seated (the other nodes are to be told), else 0
   */
  synchronized long add(ChannelMember member, String seat, String key, @Nullable JsonObject meta, long now,
      @Nullable TopicCursor cursor) {
    long stamp = 0;
    if (meta != null) {
      change(key, () -> roster.seat(seat, key, meta, now, now, true, 0));
      stamp = stamps.getAsLong();
    }
    Membership m = new Membership(member);
    members.put(member.id(), m);
    sendRoster(m);
    if (log != null) {
      List<String> missed = log.since(cursor);
      if (missed == null) {
        sendGap(m);
      } else {
        for (String text : missed) {
          if (!sendRecords(m, text)) {
            break;
          }
        }
      }
    }
    return stamp;
  }

  /**
   * Sends one transaction's {@code ops} for this topic as the next {@code records} frame to every member not owed a
   * gap, keeping it for replay; one over the frame limits restarts the topic instead.
   */
  synchronized void records(Position lsn, List<Op> ops, List<String> writes) {
    if (log == null || closed) {
      return;
    }
    String text = log.append(lsn, ops, writes);
    if (text == null) {
      restart();
      return;
    }
    for (Membership m : members.values()) {
      if (!m.recordsLost) {
        sendRecords(m, text);
      }
    }
  }

  /** A gap of the whole topic: a new epoch, and {@code gap} to every member. */
  synchronized void restart() {
    if (log == null || closed) {
      return;
    }
    log.restart();
    for (Membership m : members.values()) {
      sendGap(m);
    }
  }

  private boolean sendRecords(Membership m, String text) {
    if (m.member.send(text)) {
      counts.records().increment();
      return true;
    }
    m.recordsLost = true;
    dropped.increment();
    return false;
  }

  private void sendGap(Membership m) {
    if (m.member.send(Objects.requireNonNull(log, "a records channel's log").gap())) {
      counts.gaps().increment();
      m.recordsLost = false;
    } else {
      m.recordsLost = true;
      dropped.increment();
    }
  }

  /**
   * A repeated join of a held topic, the presence heartbeat: marks the seat heard and, with a meta, seats it or sets
   * its meta. Sends nothing itself.
   *
   * @return the stamp of the change when the seat joined or changed its meta (the other nodes are to be told), else 0
   */
  synchronized long refresh(String seat, String key, @Nullable JsonObject meta, long now) {
    if (meta == null) {
      roster.heard(seat, now);
      return 0;
    }
    return change(key, () -> roster.seat(seat, key, meta, now, now, true, 0)) ? stamps.getAsLong() : 0;
  }

  /**
   * Removes {@code member}.
   *
   * @return the stamp of its leave when it had a seat (the other nodes are to be told it left), else 0
   */
  synchronized long remove(ChannelMember member, String seat) {
    members.remove(member.id());
    String key = roster.keyOf(seat);
    if (key == null) {
      return 0;
    }
    change(key, () -> roster.unseat(seat));
    return stamps.getAsLong();
  }

  /**
   * Applies another node's message, received at {@code now}: delivers an event, or seats (or hears again) or unseats
   * a remote seat. A roster request is the hub's to answer.
   */
  synchronized void remote(ChannelMessage message, long now) {
    switch (message) {
      case ChannelMessage.Event e ->
          deliver(FrameCodec.encode(new ServerFrame.Event(e.topic(), e.event(), e.payload())));
      case ChannelMessage.Seated s -> {
        if (roster.fresh(s.seat(), s.stamp())) {
          change(s.key(), () -> roster.seat(s.seat(), s.key(), s.meta(), s.since(), now, false, s.stamp()));
        }
      }
      case ChannelMessage.Unseated u -> {
        if (roster.fresh(u.seat(), u.stamp())) {
          String key = roster.keyOf(u.seat());
          if (key != null) {
            change(key, () -> roster.left(u.seat(), u.stamp(), now));
          } else {
            roster.left(u.seat(), u.stamp(), now);
          }
        }
      }
      case ChannelMessage.RosterRequest r -> { }
    }
  }

  /** This node's seats in the roster, each with a fresh stamp, to announce to the other nodes. */
  synchronized List<PresenceRoster.LocalSeat> localSeats() {
    return roster.localSeats(stamps);
  }

  /**
   * Sends {@code frameText} (an {@code event} frame) to every member, at most once each.
   *
   * @return how many members' sockets took it
   */
  synchronized int deliver(String frameText) {
    int delivered = 0;
    for (Membership m : members.values()) {
      if (m.member.send(frameText)) {
        delivered++;
      } else {
        dropped.increment();
      }
    }
    return delivered;
  }

  /**
   * After {@code member}'s queue drained: a roster in place of the presence frames it lost, and {@code gap} in place
   * of the records frames it lost.
   */
  synchronized void repair(ChannelMember member) {
    Membership m = members.get(member.id());
    if (m != null && m.stale) {
      sendRoster(m);
    }
    if (m != null && m.recordsLost) {
      sendGap(m);
    }
  }

  /**
   * Timed work: unseats this node's seats not heard since {@code silentBefore} and the other nodes' seats not
   * announced since {@code staleBefore} (and forgets their leaves from before then), then sends the coalesced diff
   * when one is due at {@code now}.
   *
   * @return this node's seats unseated, each with the stamp of its leave (the other nodes are to be told)
   */
  synchronized Map<String, Long> tick(long now, long silentBefore, long staleBefore) {
    List<String> silent = roster.silentSince(silentBefore, true);
    unseatAll(silent);
    unseatAll(roster.silentSince(staleBefore, false));
    roster.forgetLeftBefore(staleBefore);
    if (!dirty.isEmpty() && now - flushedAt >= DIFF_INTERVAL_MS) {
      flush(now);
    }
    Map<String, Long> left = new LinkedHashMap<>();
    for (String seat : silent) {
      left.put(seat, stamps.getAsLong());
    }
    return left;
  }

  private void unseatAll(List<String> seats) {
    for (String seat : seats) {
      String key = Objects.requireNonNull(roster.keyOf(seat));
      change(key, () -> roster.unseat(seat));
    }
  }

  /** Runs {@code mutation} on the roster, marking {@code key} dirty when its member changed; true when it did. */
  private boolean change(String key, Runnable mutation) {
    PresenceMember before = roster.member(key);
    mutation.run();
    if (Objects.equals(before, roster.member(key))) {
      return false;
    }
    version++;
    Dirty d = dirty.get(key);
    dirty.put(key, new Dirty(d == null ? before : d.flushed(), version));
    return true;
  }

  private void flush(long now) {
    List<PresenceMember> joins = new ArrayList<>();
    List<String> leaves = new ArrayList<>();
    dirty.forEach((key, d) -> {
      PresenceMember current = roster.member(key);
      if (current == null && d.flushed() != null) {
        leaves.add(key);
      } else if (current != null && !current.equals(d.flushed())) {
        joins.add(current);
      }
    });
    String shared = joins.isEmpty() && leaves.isEmpty() ? null
        : FrameCodec.encode(new ServerFrame.PresenceDiff(name(), joins, leaves, roster.total()));
    for (Membership m : members.values()) {
      if (m.stale || m.shown >= version) {
        continue;
      }
      String text = m.shown <= flushedVersion ? shared : since(m.shown);
      if (text != null && !m.member.send(text)) {
        m.stale = true;
        dropped.increment();
      } else {
        m.shown = version;
      }
    }
    dirty.clear();
    flushedVersion = version;
    flushedAt = now;
  }

  /** The diff for a member shown the roster at version {@code shown}, after the last flush; null when empty. */
  private @Nullable String since(long shown) {
    List<PresenceMember> joins = new ArrayList<>();
    List<String> leaves = new ArrayList<>();
    dirty.forEach((key, d) -> {
      if (d.version() > shown) {
        PresenceMember current = roster.member(key);
        if (current == null) {
          leaves.add(key);
        } else {
          joins.add(current);
        }
      }
    });
    return joins.isEmpty() && leaves.isEmpty() ? null
        : FrameCodec.encode(new ServerFrame.PresenceDiff(name(), joins, leaves, roster.total()));
  }

  private void sendRoster(Membership m) {
    String text = FrameCodec.encode(new ServerFrame.Presence(name(), roster.members(ROSTER_MEMBERS), roster.total()));
    if (m.member.send(text)) {
      m.stale = false;
      m.shown = version;
    } else {
      m.stale = true;
      dropped.increment();
    }
  }
}
