package io.runnel.client.store.internal;

import io.runnel.client.store.ClientRecord;
import io.runnel.dsl.Actor;
import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The pending writes, in the order they were made, and the overlay they leave over truth.
 *
 * <p>Design: the overlay is never patched; {@link #replay} runs every pending write's twin again, in order, over the
 * current truth, each through its own scratch transaction that reads truth plus the earlier writes' changes. A
 * twin that throws leaves nothing behind (its scratch is dropped), so a record is never half written. The
 * {@link Conflict} policy of each mutator shapes what its replay keeps: {@code SERVER_WINS} re-runs the twin as
 * is, {@code LAST_WRITE_WINS} puts back the columns its first run wrote, {@code Merge} asks the app's function.
 */
final class Overlay {

  /** One record as the overlay leaves it: its row, or null when a pending write deleted it. */
  record Change(EntityRef type, String key, @Nullable Row row) {}

  /** A pending write and what settling it needs. */
  static final class Pending<I> {
    final String writeId;
    final MutatorRef<I> mutator;
    final I input;
    @Nullable String digest;
    @Nullable Position lsn;
    @Nullable Map<String, Row> pinned;
    @Nullable Map<String, Change> last;
    /**
     * Once sent: the truth of each record it touched, as it stood at the first attempt (null for one truth lacked
     * then, so the echo of a record it adds is not read as someone else's).
     */
    @Nullable Map<String, @Nullable Row> held;
    /** The records its last run read and found nowhere (not in truth, not written by an earlier write) nor wrote. */
    Set<String> unseen = Set.of();
    /**
     * Once sent: those of {@link #unseen} truth still lacked at the first attempt, whose first synced row it then
     * holds as their truth (their echo may come before the answer, as may a list's first snapshot of them).
     */
    @Nullable Set<String> awaited;
    /** Once settled by its digest: each touched record's truth LSN (or null) at that moment. */
    @Nullable Map<String, @Nullable Position> since;

    Pending(String writeId, MutatorRef<I> mutator, I input) {
      this.writeId = writeId;
      this.mutator = mutator;
      this.input = input;
    }

    void run(LocalTx tx) {
      MutatorRef.LocalMutation<I> twin = mutator.local();
      if (twin != null) {
        twin.apply(tx, input);
      }
    }
  }

  private final List<Pending<?>> pending = new ArrayList<>();

  List<Pending<?>> pending() {
    return pending;
  }

  @Nullable Pending<?> find(String writeId) {
    for (Pending<?> p : pending) {
      if (p.writeId.equals(writeId)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Runs every pending write over {@code truth} in order and returns the changed records by id.
   *
   * @param actor who the writes are made as ({@link LocalTx#actor()})
   * @param truth the synced row of an id, or null
   * @param failed told of each twin that threw (its changes are dropped for this replay)
   */
  Map<String, Change> replay(Actor actor, Function<String, @Nullable Row> truth,
      BiConsumer<Pending<?>, RuntimeException> failed) {
    Map<String, Change> view = new LinkedHashMap<>();
    for (Pending<?> p : pending) {
      if (p.mutator.local() == null) {
        continue;
      }
      Scratch tx = new Scratch(actor, view, truth);
      try {
        p.run(tx);
        resolve(p, tx);
        tx.unseen.removeAll(tx.changes.keySet());
        p.unseen = tx.unseen;
      } catch (RuntimeException e) {
        failed.accept(p, e);
        continue;
      }
      view.putAll(tx.changes);
    }
    return view;
  }

  private static void resolve(Pending<?> p, Scratch tx) {
    if (p.pinned == null) {
      Map<String, Row> pinned = new HashMap<>();
      for (Map.Entry<String, Change> e : tx.changes.entrySet()) {
        Row after = e.getValue().row();
        if (after != null) {
          pinned.put(e.getKey(), written(e.getValue().type(), tx.before(e.getKey()), after));
        }
      }
      p.pinned = pinned;
    }
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches"); under
    // ServerWins the twin's changes stand as they are.
    Conflict conflict = p.mutator.conflict();
    if (conflict instanceof Conflict.LastWriteWins) {
      for (Map.Entry<String, Row> e : p.pinned.entrySet()) {
        Change c = tx.changes.get(e.getKey());
        if (c != null && c.row() != null) {
          tx.changes.put(e.getKey(), new Change(c.type(), c.key(), c.row().merge(e.getValue())));
        }
      }
    } else if (conflict instanceof Conflict.Merge m) {
      Map<String, Change> last = p.last;
      if (last != null) {
        for (Map.Entry<String, Change> e : tx.changes.entrySet()) {
          Change prev = last.get(e.getKey());
          Row base = tx.before(e.getKey());
          if (prev != null && prev.row() != null && base != null && e.getValue().row() != null) {
            e.setValue(new Change(prev.type(), prev.key(), m.function().merge(base, prev.row())));
          }
        }
      }
    }
    p.last = new HashMap<>(tx.changes);
  }

  /** The columns of {@code after} that differ from {@code before} (all of them when there was no record). */
  private static Row written(EntityRef type, @Nullable Row before, Row after) {
    if (before == null) {
      return after;
    }
    Map<String, @Nullable Object> cols = new LinkedHashMap<>();
    for (Map.Entry<String, @Nullable Object> e : after.values().entrySet()) {
      if (!before.has(e.getKey()) || !type.sameValue(e.getKey(), before.get(e.getKey()), e.getValue())) {
        cols.put(e.getKey(), e.getValue());
      }
    }
    return Row.of(cols);
  }

  /** One write's transaction: reads truth plus the earlier writes, writes into its own changes. */
  private static final class Scratch implements LocalTx {
    private final Actor actor;
    private final Map<String, Change> earlier;
    private final Function<String, @Nullable Row> truth;
    final Map<String, Change> changes = new LinkedHashMap<>();
    final Set<String> unseen = new HashSet<>();

    Scratch(Actor actor, Map<String, Change> earlier, Function<String, @Nullable Row> truth) {
      this.actor = actor;
      this.earlier = earlier;
      this.truth = truth;
    }

    @Override
    public Actor actor() {
      return actor;
    }

    @Nullable Row before(String id) {
      Change c = earlier.get(id);
      return c != null ? c.row() : truth.apply(id);
    }

    private @Nullable Row read(String id) {
      Change c = changes.get(id);
      if (c != null) {
        return c.row();
      }
      Row r = before(id);
      if (r == null && !earlier.containsKey(id)) {
        unseen.add(id);
      }
      return r;
    }

    @Override
    public @Nullable Row get(EntityRef type, String key) {
      return read(ClientRecord.id(type.name(), key));
    }

    @Override
    public void insert(EntityRef type, Row row) {
      String key = type.keyOf(row);
      changes.put(ClientRecord.id(type.name(), key), new Change(type, key, row));
    }

    @Override
    public void update(EntityRef type, String key, UnaryOperator<Row> change) {
      String id = ClientRecord.id(type.name(), key);
      Row r = read(id);
      if (r != null) {
        changes.put(id, new Change(type, key, r.merge(change.apply(r))));
      }
    }

    @Override
    public void delete(EntityRef type, String key) {
      String id = ClientRecord.id(type.name(), key);
      if (read(id) != null) {
        changes.put(id, new Change(type, key, null));
      }
    }
  }
}
