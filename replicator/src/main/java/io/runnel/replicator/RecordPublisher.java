package io.runnel.replicator;

import io.runnel.bus.Subjects;
import io.runnel.bus.Transport;
import io.runnel.bus.TransportUnavailableException;
import io.runnel.dsl.Column;
import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.ValueInvalidException;
import io.runnel.dsl.server.Entity;
import io.runnel.wire.Nullable;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Publishes an app's committed rows on the bus as changes, without the replicator: for records channels only.
 *
 * <pre>{@code
 * RecordPublisher publisher = RecordPublisher.builder().transport(bus).entity(POSTS).build();
 * // after the app's own transaction committed:
 * publisher.publish(List.of(RecordPublisher.Change.update(Board.POSTS, row)));
 * }</pre>
 *
 * <p>Its changes carry no WAL position: their {@code lsn} is {@code 0000000000000000} followed by the change's place
 * in its batch (from 1), their {@code source} is {@code publisher}, and live windows never apply them
 * ({@code docs/live.md}). They have a producer of their own: a random id per publisher and a {@code seq} 1, 2, 3…
 * counted over every message it hands to the bus.
 *
 * <p>Design: a batch is checked whole before anything is sent (the entity is one this publisher publishes, every
 * key column is present and not null, every column is the entity's, every value fits its column's type) and every
 * envelope encoded; only then does the batch take its run of {@code seq} numbers, go out in order, and wait for
 * the bus to accept it ({@link Transport#flush} within the deadline). A batch the bus did not take whole has used
 * its numbers, so a consumer that reads a later message sees the hole and treats it as a gap: delivery is at most
 * once, and a loss is never silent. A refused batch takes no numbers and sends nothing. Calls are serialized, so
 * the order of {@code seq} is the order of {@link #publish} calls.
 */
public final class RecordPublisher {

  /** The {@code lsn} commit part of every published change: there is no WAL position. */
  static final String NO_COMMIT = "0000000000000000";

  private final Transport transport;
  private final Map<String, Entity> entities;
  private final Duration flushDeadline;
  private final Clock clock;
  private final Producer producer = Producer.create();

  private RecordPublisher(Builder b) {
    this.transport = Objects.requireNonNull(b.transport, "transport");
    this.entities = Map.copyOf(b.entities);
    this.flushDeadline = b.flushDeadline;
    this.clock = b.clock;
    if (entities.isEmpty()) {
      throw new IllegalStateException("A record publisher publishes at least one entity: add it with entity(…)");
    }
  }

  /** A builder; the transport and at least one entity are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** This publisher's producer id on the bus (16 hex characters). */
  public String producer() {
    return producer.id();
  }

  /**
   * Checks {@code changes} whole, then publishes them in order, as one batch, and waits until the bus accepted them.
   *
   * @param changes the rows the app committed, in the order consumers should see them; not empty
   * @throws PublishRefusedException ({@code X_PUBLISH_REFUSED}) when a change names an entity this publisher does
   *     not publish, lacks a key column or holds a null one, holds a column its entity lacks, or a value that does
   *     not fit its column; nothing was sent
   * @throws TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when the bus did not accept the batch
   *     within the flush deadline; its {@code seq} numbers are used, so consumers see the hole
   * @throws IllegalArgumentException when {@code changes} is empty
   */
  public synchronized void publish(List<Change> changes) {
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      throw new IllegalArgumentException("A batch holds at least one change");
    }
    List<Checked> checked = new ArrayList<>(changes.size());
    for (int i = 0; i < changes.size(); i++) {
      checked.add(check(i, Objects.requireNonNull(changes.get(i), "change")));
    }
    long commitTime = clock.millis();
    List<String> subjects = new ArrayList<>(checked.size());
    List<byte[]> payloads = new ArrayList<>(checked.size());
    long first = -1;
    for (int i = 0; i < checked.size(); i++) {
      Checked c = checked.get(i);
      long seq = producer.nextSeq();
      first = first < 0 ? seq : first;
      ChangeEvent event = new ChangeEvent(c.entity().qualifiedTable(), c.entity().name(), c.change().op(), c.key(),
          c.change().op() == ChangeOp.DELETE ? null : c.row(), c.change().op() == ChangeOp.DELETE ? c.row() : null,
          List.of(), NO_COMMIT + "%08x".formatted(i + 1), 0, i == checked.size() - 1, commitTime, null,
          producer.id(), seq, ChangeEvent.Source.PUBLISHER);
      subjects.add(Subjects.changes(c.entity().schema(), c.entity().table()));
      payloads.add(ChangeEnvelope.encode(event, c.types()));
    }
    for (int i = 0; i < payloads.size(); i++) {
      transport.publish(subjects.get(i), payloads.get(i));
    }
    transport.flush(flushDeadline);
  }

  private record Checked(Change change, Entity entity, String key, Row row, Map<String, ColumnType> types) {}

  private Checked check(int index, Change change) {
    EntityRef ref = change.entity();
    Entity entity = entities.get(ref.name());
    if (entity == null || entity.ref() != ref) {
      throw new PublishRefusedException("Change " + index + " is of entity '" + ref.name()
          + "', which this publisher does not publish.", "Add it with RecordPublisher.builder().entity(…), or "
          + "publish only the entities it was built with: " + String.join(", ", entities.keySet()) + ".");
    }
    Map<String, ColumnType> types = new LinkedHashMap<>();
    for (Column c : ref.columns()) {
      types.put(c.name(), c.type());
    }
    Map<String, @Nullable Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, @Nullable Object> e : change.row().values().entrySet()) {
      ColumnType type = types.get(e.getKey());
      if (type == null) {
        throw new PublishRefusedException("Change " + index + " (" + ref.name() + ") holds column '" + e.getKey()
            + "', which the entity does not declare.", "Publish only the entity's columns: "
            + String.join(", ", types.keySet()) + ".");
      }
      Object v = e.getValue();
      try {
        values.put(e.getKey(), v == null ? null : type.coerce(v));
      } catch (ValueInvalidException bad) {
        throw new PublishRefusedException("Change " + index + " (" + ref.name() + "): column '" + e.getKey()
            + "' " + bad.cause(), "Give it a " + type.sqlName() + " value.");
      }
    }
    for (String k : ref.key()) {
      if (values.get(k) == null) {
        throw new PublishRefusedException("Change " + index + " (" + ref.name() + ") has no value for key column '"
            + k + "'.", "Give every key column (" + String.join(", ", ref.key()) + ") a value.");
      }
    }
    Row row = Row.of(values);
    if (change.op() == ChangeOp.DELETE) {
      Map<String, @Nullable Object> keyOnly = new LinkedHashMap<>();
      for (String k : ref.key()) {
        keyOnly.put(k, values.get(k));
      }
      row = Row.of(keyOnly);
    }
    return new Checked(change, entity, ref.keyOf(row), row, types);
  }

  /**
   * One committed row to publish.
   *
   * @param entity the row's entity, one the publisher was built with
   * @param op {@link ChangeOp#INSERT}, {@link ChangeOp#UPDATE} or {@link ChangeOp#DELETE}
   * @param row the whole new row (insert, update), or at least the key columns of the deleted row (delete; other
   *     columns are dropped)
   */
  public record Change(EntityRef entity, ChangeOp op, Row row) {

    /** @throws IllegalArgumentException for {@link ChangeOp#TRUNCATE}, which names no row */
    public Change {
      Objects.requireNonNull(entity, "entity");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(row, "row");
      if (op == ChangeOp.TRUNCATE) {
        throw new IllegalArgumentException("The record publisher publishes rows: insert, update or delete");
      }
    }

    /** A row the app inserted. */
    public static Change insert(EntityRef entity, Row row) {
      return new Change(entity, ChangeOp.INSERT, row);
    }

    /** A row the app updated: the whole new row. */
    public static Change update(EntityRef entity, Row row) {
      return new Change(entity, ChangeOp.UPDATE, row);
    }

    /** A row the app deleted: its key columns. */
    public static Change delete(EntityRef entity, Row key) {
      return new Change(entity, ChangeOp.DELETE, key);
    }
  }

  /** Collects a {@link RecordPublisher}'s transport, entities, flush deadline and clock. */
  public static final class Builder {
    private @Nullable Transport transport;
    private final Map<String, Entity> entities = new LinkedHashMap<>();
    private Duration flushDeadline = Duration.ofSeconds(5);
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** The bus to publish on. */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /**
     * An entity this publisher may publish (its table names the subject).
     *
     * @throws IllegalArgumentException when another entity of the same name was added
     */
    public Builder entity(Entity entity) {
      Entity known = entities.putIfAbsent(Objects.requireNonNull(entity, "entity").name(), entity);
      if (known != null && known != entity) {
        throw new IllegalArgumentException("Two entities are named '" + entity.name() + "'");
      }
      return this;
    }

    /** How long {@link #publish} waits for the bus to accept a batch (default 5 s). */
    public Builder flushDeadline(Duration flushDeadline) {
      if (flushDeadline.isNegative() || flushDeadline.isZero()) {
        throw new IllegalArgumentException("The flush deadline must be positive, not " + flushDeadline);
      }
      this.flushDeadline = flushDeadline;
      return this;
    }

    /** The clock that stamps {@code commitTime} (default the system's UTC clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The publisher.
     *
     * @throws NullPointerException when no transport was given
     * @throws IllegalStateException when no entity was given
     */
    public RecordPublisher build() {
      return new RecordPublisher(this);
    }
  }
}
