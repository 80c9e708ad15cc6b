package io.runnel.client.live.internal;

import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryState;
import io.runnel.client.live.QueryView;
import io.runnel.client.store.ClientRecord;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.Actor;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The {@link LiveQuery} of one subscription on the page's socket: the node's list for the subscription, with the
 * record store's overlay applied; the {@link LiveClient} hands it the node's frames for its sid.
 *
 * <p>Design: the list keeps only the node's order (its keys) and its cursor; rows live in the {@link RecordStore}.
 * Its view is recomputed after every store batch: the node's records in the node's order, except that records a
 * pending write changed or inserted are taken out and placed again by the query's own select ({@link Matcher}), so
 * an optimistic insert appears where the node would put it and its echo (same key) replaces it without a second
 * copy. A view is handed to listeners only when it differs from the last one.
 */
final class QuerySubscription implements LiveQuery {

  private final LiveClient client;
  private final RecordStore store;
  private final String sid;
  private final String query;
  private final JsonObject input;
  private final Function<Actor, Select> select;
  private final List<Consumer<QueryView>> listeners = new ArrayList<>();
  private final Runnable storeListener = this::refresh;
  private List<String> keys = new ArrayList<>();
  private @Nullable String type;
  private @Nullable Matcher matcher;
  private @Nullable Cursor cursor;
  private QueryState state = new QueryState.Pending();
  private QueryView view = new QueryView(state, List.of());
  private boolean synced;
  private boolean released;

  QuerySubscription(LiveClient client, RecordStore store, String sid, String query, JsonObject input,
      Function<Actor, Select> select) {
    this.client = client;
    this.store = store;
    this.sid = sid;
    this.query = query;
    this.input = input;
    this.select = select;
    store.listen(storeListener);
  }

  @Override
  public String sid() {
    return sid;
  }

  @Override
  public QueryView view() {
    return view;
  }

  @Override
  public Runnable listen(Consumer<QueryView> listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    listener.accept(view);
    return () -> listeners.remove(listener);
  }

  @Override
  public void release() {
    if (released) {
      return;
    }
    released = true;
    client.released(this);
    store.unlisten(storeListener);
    store.batch(() -> {
      for (String k : keys) {
        store.release(this, holdType(), k);
      }
      keys = new ArrayList<>();
    });
    listeners.clear();
  }

  boolean released() {
    return released;
  }

  boolean synced() {
    return synced;
  }

  boolean failed() {
    return state instanceof QueryState.Failed;
  }

  /** The {@code sub} frame that (re)starts this subscription, resuming from the cursor when one is held. */
  ClientFrame.Sub sub(boolean withCursor) {
    ResumeCursor resume = withCursor && cursor != null ? ResumeCursor.of(cursor, keys) : null;
    return new ClientFrame.Sub(sid, query, input, resume);
  }

  /** The connection went away: the list stays as it is until the node answers the resume. */
  void unsynced() {
    synced = false;
  }

  /** The actor is known (or changed): the select that places optimistic records is built for it. */
  void actor(Actor actor) {
    try {
      Select s = select.apply(actor);
      store.register(s.entity());
      type = s.entity().name();
      matcher = Matcher.of(s);
    } catch (RuntimeException e) {
      matcher = null;
    }
  }

  /**
   * The principal changed: the store was cleared, so the list starts over with no cursor, pending again even when
   * the node refused it (that refusal was for the old actor).
   */
  void reset() {
    keys = new ArrayList<>();
    cursor = null;
    synced = false;
    state = new QueryState.Pending();
    store.touch();
  }

  void snapshot(ServerFrame.Snapshot s) {
    List<String> next = new ArrayList<>(s.records().size());
    for (WireRecord r : s.records()) {
      String key = take(r, s.cursor().lsn());
      if (key != null && next.indexOf(key) < 0) {
        next.add(key);
      }
    }
    Set<String> kept = new HashSet<>();
    for (String k : next) {
      kept.add(k);
    }
    for (String k : keys) {
      if (!kept.contains(k)) {
        store.release(this, holdType(), k);
      }
    }
    keys = next;
    live(s.cursor());
  }

  void patch(ServerFrame.Patch p) {
    Position lsn = p.cursor().lsn();
    for (Op op : p.ops()) {
      // An instanceof chain, not a type switch (docs/client.md, "Type switches in small helpers"); SealedSubtypesTest
      // pins Op's subtypes.
      if (op instanceof Op.Place place) {
        String key = take(place.record(), lsn);
        if (key != null) {
          keys.remove(key);
          int at = place.after() == null ? 0 : keys.indexOf(place.after()) + 1;
          keys.add(at == 0 && place.after() != null ? keys.size() : at, key);
        }
      } else if (op instanceof Op.Update update) {
        if (keys.indexOf(update.key()) >= 0) {
          take(update.record(), lsn);
        }
      } else if (op instanceof Op.Del del && keys.remove(del.key())) {
        store.release(this, holdType(), del.key());
      }
    }
    store.noteWrites(p.writes());
    live(p.cursor());
  }

  void refused(ServerFrame.Refuse r) {
    refused(new QueryState.Failed(r.code(), r.cause(), r.fix()));
  }

  /** The subscription failed (the node refused it, or the page could not ask): its view shows why. */
  void refused(QueryState.Failed failure) {
    state = failure;
    synced = true;
    store.touch();
  }

  private void live(Cursor c) {
    cursor = c;
    synced = true;
    state = new QueryState.Ready();
    store.touch();
  }

  private @Nullable String take(WireRecord r, Position lsn) {
    if (type != null && !type.equals(r.type())) {
      return null;
    }
    String key = store.accept(r, lsn);
    if (key != null) {
      type = r.type();
      store.hold(this, r.type(), key);
    }
    return key;
  }

  private String holdType() {
    return type == null ? "" : type;
  }

  private void refresh() {
    if (released) {
      return;
    }
    QueryView next = new QueryView(state, records());
    if (!same(next, view, store)) {
      view = next;
      for (Consumer<QueryView> l : List.copyOf(listeners)) {
        l.accept(next);
      }
    }
  }

  private List<ClientRecord> records() {
    String t = type;
    if (t == null) {
      return List.of();
    }
    Map<String, @Nullable Row> optimistic = store.optimistic(t);
    List<ClientRecord> out = new ArrayList<>(keys.size() + optimistic.size());
    for (String k : keys) {
      Row row = optimistic.containsKey(k) ? null : store.synced(t, k);
      if (row != null) {
        out.add(new ClientRecord(t, k, row));
      } else if (optimistic.containsKey(k) && optimistic.get(k) != null && matcher == null) {
        out.add(new ClientRecord(t, k, optimistic.get(k)));
      }
    }
    Matcher m = matcher;
    if (m != null) {
      for (Map.Entry<String, @Nullable Row> e : optimistic.entrySet()) {
        Row row = e.getValue();
        if (row != null) {
          place(m, out, new ClientRecord(t, e.getKey(), row), keys.indexOf(e.getKey()) >= 0);
        }
      }
    }
    return out;
  }

  /** Places an optimistic record before the first record that sorts after it, when the select takes it. */
  private void place(Matcher m, List<ClientRecord> out, ClientRecord r, boolean held) {
    try {
      if (!m.matches(r.row())) {
        return;
      }
      int at = out.size();
      for (int i = 0; i < out.size(); i++) {
        if (m.compare(r.row(), out.get(i).row()) < 0) {
          at = i;
          break;
        }
      }
      out.add(at, r);
    } catch (IllegalArgumentException e) {
      if (held) {
        out.add(r);
      }
    }
  }

  /**
   * Whether {@code other} shows the same as {@code view} ({@link QueryView#equals}), compared field by field and each
   * row through its entity's column types ({@link RecordStore#sameRow}), so that a client bundle does not link every
   * record's {@code equals} ({@code docs/client.md}, "Sizes").
   *
   * @param rows the store whose entities the records belong to
   */
  static boolean same(QueryView view, QueryView other, RecordStore rows) {
    if (!sameState(view.state(), other.state()) || view.records().size() != other.records().size()) {
      return false;
    }
    for (int i = 0; i < view.records().size(); i++) {
      ClientRecord a = view.records().get(i);
      ClientRecord b = other.records().get(i);
      if (!a.type().equals(b.type()) || !a.key().equals(b.key()) || !rows.sameRow(a.type(), a.row(), b.row())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameState(QueryState a, QueryState b) {
    if (a instanceof QueryState.Failed x) {
      return b instanceof QueryState.Failed y && x.code().equals(y.code()) && x.cause().equals(y.cause())
          && x.fix().equals(y.fix());
    }
    return a instanceof QueryState.Pending ? b instanceof QueryState.Pending : b instanceof QueryState.Ready;
  }
}
