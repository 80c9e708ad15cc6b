package io.runnel.sync.channel.internal;

import io.runnel.dsl.Column;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.replicator.ChangeEvent;
import io.runnel.sync.live.internal.ChangeListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns the change stream into {@code records} frames: each change of a records channel's entity goes to the topic
 * its row's param columns name (the new row's for an insert or update, the old row's for a delete or an update that
 * moved the row), and each topic the node holds gets one frame per transaction ({@code docs/channels.md}).
 *
 * <p>What cannot be sent as rows becomes a {@code gap}: a truncate or a transaction too large to hold (every topic
 * of the channels on that table); a delete or update whose old row lacks the param columns (not REPLICA IDENTITY
 * FULL, and the params are not all key columns: every topic of the channel, but the update's new one); an update
 * whose new row is not whole (an unchanged TOASTed column the WAL left out, which no old row fills in: that topic).
 * A topic gapped in a transaction gets no frame of it: its members' catch-up read after the gap sees it. A bus gap
 * restarts every records topic.
 */
final class RecordsRouter implements ChangeListener {

  /** One entity a channel carries, and the column of each param. */
  private record Binding(Channel channel, EntityRef entity, List<String> columns, boolean paramsInKey) {}

  /** Where a row's params place it: {@code known} false when a param column is missing; a null topic when NULL. */
  private record Place(boolean known, @Nullable String topic) {
    static final Place UNKNOWN = new Place(false, null);
    static final Place NOWHERE = new Place(true, null);
  }

  /** One topic's share of a transaction. */
  private static final class Batch {
    final List<Op> ops = new ArrayList<>();
    final Set<String> writes = new LinkedHashSet<>();
  }

  /** One transaction being routed. */
  private final class Routing {
    final Map<String, Batch> batches = new LinkedHashMap<>();
    /** Topics gapped on their own. */
    final Set<String> gapped = new HashSet<>();
    /** Per channel, the held topics spared its gap (null entry: no gap of that channel). */
    final Map<String, Set<String>> spared = new HashMap<>();

    void op(String topic, Op op, @Nullable String write) {
      if (topics.get(topic) == null) {
        return;
      }
      Batch b = batches.computeIfAbsent(topic, t -> new Batch());
      b.ops.add(op);
      if (write != null) {
        b.writes.add(write);
      }
    }

    /** Gaps every held topic of {@code channel} except {@code except} (null: none spared). */
    void channelGap(Channel channel, @Nullable String except) {
      Set<String> now = spared.get(channel.name());
      Set<String> next = new HashSet<>();
      if (except != null && (now == null || now.contains(except))) {
        next.add(except);
      }
      spared.put(channel.name(), next);
    }

    void finish(Position lsn) {
      for (Topic t : spared.isEmpty() ? List.<Topic>of() : topics.all()) {
        Set<String> spare = spared.get(t.resolved.channel().name());
        if (t.carriesRecords() && spare != null && !spare.contains(t.name())) {
          gapped.add(t.name());
        }
      }
      for (String name : gapped) {
        Topic t = topics.get(name);
        if (t != null) {
          t.restart();
        }
      }
      for (Map.Entry<String, Batch> e : batches.entrySet()) {
        Topic t = topics.get(e.getKey());
        if (t != null && !gapped.contains(e.getKey())) {
          t.records(lsn, e.getValue().ops, List.copyOf(e.getValue().writes));
        }
      }
    }
  }

  private final TopicTable topics;
  private final Map<String, List<Binding>> byTable = new HashMap<>();

  RecordsRouter(Declarations declarations, TopicTable topics) {
    this.topics = topics;
    for (Channel c : declarations.channels()) {
      for (Channel.Records r : c.records()) {
        EntityRef ref = r.entity().ref();
        byTable.computeIfAbsent(r.entity().qualifiedTable(), t -> new ArrayList<>())
            .add(new Binding(c, ref, r.paramColumns(), ref.key().containsAll(r.paramColumns())));
      }
    }
  }

  @Override
  public void transaction(List<ChangeEvent> changes, Position lsn) {
    if (byTable.isEmpty() || topics.size() == 0) {
      return;
    }
    Routing routing = new Routing();
    for (ChangeEvent c : changes) {
      for (Binding b : byTable.getOrDefault(c.table(), List.of())) {
        route(routing, b, c);
      }
    }
    routing.finish(lsn);
  }

  @Override
  public void oversized(Set<String> tables, Position lsn) {
    Routing routing = new Routing();
    for (String table : tables) {
      for (Binding b : byTable.getOrDefault(table, List.of())) {
        routing.channelGap(b.channel(), null);
      }
    }
    routing.finish(lsn);
  }

  @Override
  public void gap() {
    for (Topic t : topics.all()) {
      t.restart();
    }
  }

  private void route(Routing r, Binding b, ChangeEvent c) {
    String type = b.entity().name();
    switch (c) {
      case ChangeEvent.Truncate t -> r.channelGap(b.channel(), null);
      case ChangeEvent.Insert i -> {
        Row row = i.row();
        Place to = place(b, row);
        if (!to.known()) {
          r.channelGap(b.channel(), null);
        } else if (to.topic() != null) {
          upsert(r, b, to.topic(), i.key(), i.write(), row);
        }
      }
      case ChangeEvent.Delete d -> {
        Place from = hasAll(d.old(), b.columns()) ? place(b, d.old()) : Place.UNKNOWN;
        if (!from.known()) {
          r.channelGap(b.channel(), null);
        } else if (from.topic() != null && d.key() != null) {
          r.op(from.topic(), new Op.Del(type, d.key()), d.write());
        }
      }
      case ChangeEvent.Update u -> update(r, b, u);
    }
  }

  private void update(Routing r, Binding b, ChangeEvent.Update c) {
    String type = b.entity().name();
    Row old = c.old();
    Row row = c.row();
    for (String omitted : c.omitted()) {
      if (old != null && old.has(omitted)) {
        row = row.with(omitted, old.get(omitted));
      }
    }
    String key = Objects.requireNonNull(c.key(), "an update's key");
    String oldKey = old != null && hasAll(old, b.entity().key()) ? b.entity().keyOf(old) : key;
    Place to = place(b, row);
    if (!to.known()) {
      r.channelGap(b.channel(), null);
      return;
    }
    Place from;
    if (old != null && hasAll(old, b.columns())) {
      from = place(b, old);
    } else if (old == null && b.paramsInKey()) {
      from = to; // no old row: the key did not change, and the params are key columns
    } else {
      from = Place.UNKNOWN;
    }
    if (to.topic() != null) {
      if (!oldKey.equals(key) && (!from.known() || to.topic().equals(from.topic()))) {
        r.op(to.topic(), new Op.Del(type, oldKey), c.write());
      }
      upsert(r, b, to.topic(), c.key(), c.write(), row);
    }
    if (from.known() && from.topic() != null && !from.topic().equals(to.topic())) {
      r.op(from.topic(), new Op.Del(type, oldKey), c.write());
    }
    if (!from.known()) {
      r.channelGap(b.channel(), to.topic());
    }
  }

  /** A put of the whole row on {@code topic}, or, when the row is not whole, a gap of that topic. */
  private void upsert(Routing r, Binding b, String topic, @Nullable String key, @Nullable String write, Row row) {
    EntityRef e = b.entity();
    if (!whole(e, row)) {
      if (topics.get(topic) != null) {
        r.gapped.add(topic);
      }
      return;
    }
    r.op(topic, new Op.Update(new WireRecord(e.name(), Objects.requireNonNull(key, "key"), e.rowToJson(row))),
        write);
  }

  /** The topic {@code row}'s param columns name. */
  private static Place place(Binding b, Row row) {
    String[] values = new String[b.columns().size()];
    for (int i = 0; i < values.length; i++) {
      String column = b.columns().get(i);
      if (!row.has(column)) {
        return Place.UNKNOWN;
      }
      Object v = row.get(column);
      if (v == null) {
        return Place.NOWHERE;
      }
      values[i] = b.entity().column(column).type().format(v);
    }
    return new Place(true, b.channel().ref().topic(values));
  }

  private static boolean hasAll(Row row, List<String> columns) {
    for (String c : columns) {
      if (!row.has(c)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code row} carries every declared column (an unchanged TOASTed one may be missing). */
  private static boolean whole(EntityRef entity, Row row) {
    for (Column c : entity.columns()) {
      if (!row.has(c.name())) {
        return false;
      }
    }
    return true;
  }
}
