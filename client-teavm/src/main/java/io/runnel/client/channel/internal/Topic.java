package io.runnel.client.channel.internal;

import io.runnel.client.channel.ChannelState;
import io.runnel.client.channel.Roster;
import io.runnel.client.store.ClientRecord;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.ReadAnswer;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One joined topic: its handles, its presence meta and roster, and for a records channel the rows it holds in the
 * record store.
 *
 * <p>Design of the records: the topic applies {@code records} frames in {@code seq} order within one epoch and
 * remembers the last one applied ({@code epoch}, {@code seq}), which is the cursor its {@code join} carries. A
 * frame whose {@code seq} skips, a new epoch, or a {@code gap} starts a catch-up: the channel's catch-up query is
 * read over HTTP while later frames are held. A join with no cursor holds frames at once but reads only when the
 * node's {@code gap} answers it (the node answers every join without a cursor so): a read begun before the node took
 * the join could miss what committed in between, and would have to be read again. Should that {@code gap} not come
 * by the second heartbeat, the topic reads anyway; when the read lands its rows go into the
 * store at the read's LSN (rows the topic held that it no longer returns are let go), and the held frames are
 * applied in order after it, through the same checks (a hole among them starts another catch-up). Invariant: no row
 * regresses. The store keeps each record's newest version by LSN, so neither the read nor a frame overwrites a newer
 * row; a frame older than the last read (its LSN below the read's) is counted but not applied, since the read
 * already shows its effect, so a row the read no longer holds is not brought back; a {@code del} lets go of the
 * topic's hold only (a live query that holds the row keeps it). A {@code gap} while a read is in flight reads again
 * once it lands, since that read may have started before the node lost frames.
 */
final class Topic {

  private static final ChannelState JOINING = new ChannelState.Joining();
  private static final ChannelState CATCHING_UP = new ChannelState.CatchingUp();
  private static final ChannelState LIVE = new ChannelState.Live();
  private static final ChannelState OFFLINE = new ChannelState.Offline();

  private final Channels hub;
  private final RecordStore store;
  final String name;
  private final @Nullable String query;
  private final JsonObject input;
  private final List<TopicHandle> handles = new ArrayList<>();
  private @Nullable JsonObject presence;
  private ChannelState.@Nullable Failed failure;
  private ChannelState state = JOINING;
  private boolean joined;
  /** The node took this connection's join: its first {@code presence} frame (the roster) came. */
  private boolean accepted;
  private final Map<String, PresenceMember> members = new LinkedHashMap<>();
  private Roster roster = new Roster(List.of(), 0);
  private Map<String, String> held = new HashMap<>();
  private List<ServerFrame.Records> waiting = new ArrayList<>();
  private @Nullable String epoch;
  private long seq;
  private @Nullable Position floor;
  private boolean catching;
  private boolean reading;
  private boolean readAgain;
  /** A join with no cursor was sent and the node's {@code gap} answering it has not come yet. */
  private boolean awaitingGap;
  private int reads;

  Topic(Channels hub, RecordStore store, String name, @Nullable String query, JsonObject input) {
    this.hub = hub;
    this.store = store;
    this.name = name;
    this.query = query;
    this.input = input;
  }

  ChannelState state() {
    return state;
  }

  Roster roster() {
    return roster;
  }

  boolean synced() {
    return !catching;
  }

  /** A handle opens on this topic, announcing {@code meta} (or null); a new topic joins now when online. */
  void add(TopicHandle handle, @Nullable JsonObject meta) {
    boolean first = handles.isEmpty();
    handles.add(handle);
    if (meta != null) {
      presence = meta;
    }
    handle.listener.state(state);
    handle.listener.presence(roster);
    if (failure == null && hub.online()) {
      if (first) {
        connected();
      } else if (meta != null) {
        hub.send(join());
      }
    }
  }

  /** A handle is released; the last one leaves the topic and lets go of its records. */
  void remove(TopicHandle handle) {
    if (!handles.remove(handle) || !handles.isEmpty() || failure != null) {
      return;
    }
    hub.send(new ClientFrame.Leave(name));
    close();
  }

  /**
   * The connection is online: join (with the cursor of the last frame applied). With no cursor, frames are held
   * until the node's {@code gap} starts the read; with one, a catch-up cut short by the disconnect reads now. The
   * topic is {@code joining} until the node's roster answers the join.
   */
  void connected() {
    joined = true;
    accepted = false;
    hub.send(join());
    if (query != null && epoch == null) {
      catching = true;
      awaitingGap = true;
    } else if (query != null && catching) {
      catchUp();
    }
    publishState();
  }

  /**
   * A heartbeat: the {@code join} again, refreshing presence; a catch-up read that failed is tried again, and so is
   * one whose {@code gap} has not come for a whole heartbeat.
   */
  void beat() {
    hub.send(join());
    if (awaitingGap) {
      awaitingGap = false;
    } else if (catching && !reading) {
      read();
    }
  }

  void offline() {
    accepted = false;
    publishState();
  }

  /** The store was cleared (another principal): the rows and the cursor are gone; the next join reads afresh. */
  void cleared() {
    held = new HashMap<>();
    waiting = new ArrayList<>();
    epoch = null;
    floor = null;
    catching = false;
    reading = false;
    readAgain = false;
    awaitingGap = false;
    reads++;
  }

  /**
   * One of the topic's frames ({@code records}, {@code gap}, {@code event}, {@code presence}, {@code presence-diff},
   * {@code refuse}). Tested with {@code instanceof}, not a pattern switch: TeaVM writes a switch over the ten frame
   * kinds out at length.
   */
  void frame(ServerFrame frame) {
    if (frame instanceof ServerFrame.Records r) {
      records(r);
    } else if (frame instanceof ServerFrame.Gap) {
      if (query != null) {
        awaitingGap = false;
        waiting = new ArrayList<>();
        epoch = null;
        readAgain = reading;
        catchUp();
      }
    } else if (frame instanceof ServerFrame.Event e) {
      for (TopicHandle h : List.copyOf(handles)) {
        h.listener.event(e.event(), e.payload());
      }
    } else if (frame instanceof ServerFrame.Presence p) {
      members.clear();
      roster(p.members(), List.of(), p.total());
      if (!accepted) {
        accepted = true;
        publishState();
      }
    } else if (frame instanceof ServerFrame.PresenceDiff d) {
      roster(d.joins(), d.leaves(), d.total());
    } else if (frame instanceof ServerFrame.Refuse r) {
      fail(new ChannelState.Failed(r.code(), r.cause(), r.fix()), false);
    }
  }

  private void roster(List<PresenceMember> joins, List<String> leaves, long total) {
    for (String key : leaves) {
      members.remove(key);
    }
    for (PresenceMember m : joins) {
      members.put(m.key(), m);
    }
    roster = new Roster(new ArrayList<>(members.values()), total);
    for (TopicHandle h : List.copyOf(handles)) {
      h.listener.presence(roster);
    }
  }

  private void records(ServerFrame.Records r) {
    if (catching) {
      waiting.add(r);
      return;
    }
    String at = epoch;
    if (query != null && at != null && (!at.equals(r.epoch()) || r.seq() != seq + 1)) {
      if (at.equals(r.epoch()) && r.seq() <= seq) {
        return;
      }
      waiting.add(r);
      catchUp();
      return;
    }
    epoch = r.epoch();
    seq = r.seq();
    Position read = floor;
    if (read == null || r.lsn().reached(read)) {
      store.batch(() -> apply(r));
    }
  }

  private void apply(ServerFrame.Records r) {
    for (Op op : r.ops()) {
      if (op instanceof Op.Del) {
        held.remove(ClientRecord.id(op.type(), op.key()));
        store.release(this, op.type(), op.key());
      } else {
        take(op instanceof Op.Place p ? p.record() : ((Op.Update) op).record(), r.lsn());
      }
    }
    store.noteWrites(r.writes());
  }

  private void take(WireRecord r, Position lsn) {
    String key = store.accept(r, lsn);
    if (key != null) {
      store.hold(this, r.type(), key);
      held.put(ClientRecord.id(r.type(), key), r.type());
    }
  }

  private void catchUp() {
    catching = true;
    if (!reading) {
      read();
    }
    publishState();
  }

  private void read() {
    String q = query;
    if (q != null && hub.online()) {
      reading = true;
      hub.read(this, ++reads, q, input);
    }
  }

  /** Catch-up read {@code number} landed: its rows go in at its LSN, then the frames held meanwhile. */
  void landed(int number, ReadAnswer answer) {
    if (number != reads || failure != null) {
      return;
    }
    reading = false;
    if (readAgain) {
      readAgain = false;
      read();
      return;
    }
    catching = false;
    floor = answer.lsn();
    epoch = null;
    store.batch(() -> {
      Map<String, String> before = held;
      held = new HashMap<>();
      for (WireRecord r : answer.records()) {
        take(r, answer.lsn());
      }
      for (Map.Entry<String, String> e : before.entrySet()) {
        String id = e.getKey();
        String type = e.getValue();
        if (!held.containsKey(id)) {
          store.release(this, type, id.substring(type.length() + 1));
        }
      }
      List<ServerFrame.Records> frames = waiting;
      waiting = new ArrayList<>();
      for (ServerFrame.Records r : frames) {
        records(r);
      }
    });
    publishState();
  }

  /**
   * Catch-up read {@code number} found no answer it can use now (no network, a 5xx, a 429): it is tried again at
   * the next heartbeat or connection; with {@code refusal}, the node refused it and the channel fails.
   */
  void readFailed(int number, ChannelState.@Nullable Failed refusal) {
    if (number != reads || failure != null) {
      return;
    }
    reading = false;
    if (refusal != null) {
      fail(refusal, true);
    }
  }

  private void fail(ChannelState.Failed why, boolean leave) {
    if (failure != null) {
      return;
    }
    failure = why;
    if (leave) {
      hub.send(new ClientFrame.Leave(name));
    }
    close();
    publishState();
  }

  /** The topic is left: no more frames, reads or joins, and the rows it held are let go. */
  private void close() {
    hub.remove(this);
    reads++;
    catching = false;
    waiting = new ArrayList<>();
    Map<String, String> before = held;
    held = new HashMap<>();
    store.batch(() -> {
      for (Map.Entry<String, String> e : before.entrySet()) {
        String type = e.getValue();
        store.release(this, type, e.getKey().substring(type.length() + 1));
      }
    });
  }

  private ClientFrame.Join join() {
    String at = epoch;
    return new ClientFrame.Join(name, at == null ? null : new TopicCursor(at, seq), presence);
  }

  /**
   * The state: {@code joining} from the {@code join} until the node's roster answers it (every accepted join gets
   * one first, an empty one on a channel without presence), then {@code catching-up} or {@code live}.
   */
  private void publishState() {
    ChannelState next = failure != null ? failure
        : !hub.online() ? (joined ? OFFLINE : JOINING) : !accepted ? JOINING : catching ? CATCHING_UP : LIVE;
    if (next != state) {
      state = next;
      for (TopicHandle h : List.copyOf(handles)) {
        h.listener.state(next);
      }
    }
  }

}
