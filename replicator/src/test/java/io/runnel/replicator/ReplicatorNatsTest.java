package io.runnel.replicator;

import static io.runnel.replicator.Changes.key;
import static io.runnel.replicator.Changes.omitted;
import static io.runnel.replicator.Changes.row;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.bus.Subjects;
import io.runnel.bus.Transport;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.testing.Await;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicator publishing through NATS to a consumer on another connection, on a real {@code nats-server} of the
 * test's own: a mixed workload arrives once and in order (a change over {@code max_payload} as its key), and a
 * server killed and started again mid-workload loses nothing committed, confirms nothing the bus missed, and tells
 * consumers through {@code onReconnect}.
 */
class ReplicatorNatsTest {

  static final Duration WAIT = Duration.ofSeconds(60);

  static final EntityRef POSTS = EntityRef.of("posts").key("id").columns(c -> c.int4("id").text("title").text("body"));
  static final EntityRef LIKES = EntityRef.of("likes").key("post_id", "user_id")
      .columns(c -> c.int4("post_id").text("user_id"));
  static final List<Entity> ENTITIES = List.of(Entity.of(POSTS), Entity.of(LIKES).table("board.likes"));
  static final Map<String, EntityRef> REFS = Map.of("posts", POSTS, "likes", LIKES);

  /** What a consumer of {@code runnel.changes.>} heard: every message decoded, in bus order. */
  static final class Consumer {
    final BlockingQueue<BusMessage> messages = new LinkedBlockingQueue<>();
    final List<String> subjects = new CopyOnWriteArrayList<>();
    final CountDownLatch reconnected = new CountDownLatch(1);

    Consumer(Transport bus) {
      bus.onReconnect(reconnected::countDown);
      bus.subscribe(Subjects.ALL_CHANGES, m -> {
        subjects.add(m.subject());
        messages.add(BusEnvelope.decode(m.payload(), REFS::get));
      });
    }

    /** The next change (position heartbeats are skipped), failing when none arrives in time. */
    ChangeEvent nextChange(List<BusMessage> seen) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (true) {
        BusMessage m = messages.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        assertNotNull(m, "a change arrives in time; heard so far: " + seen.size());
        seen.add(m);
        if (m instanceof ChangeEvent c) {
          return c;
        }
      }
    }
  }

  /** A replicator (not started) publishing on {@code bus}, redialling quickly, with {@code flushDeadline}. */
  static Replicator replicator(TestDatabase db, String slot, Transport bus, Duration flushDeadline) {
    return Replicator.builder().database(DatabaseUrl.parse("test", db.jdbcUrl())).slot(slot).publication(slot)
        .entities(ENTITIES).transport(bus).backoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .flushDeadline(flushDeadline).build();
  }

  static NatsTransport connect(NatsServer nats) {
    return NatsTransport.connect(NatsConfig.parse("test", nats.url()).withReconnect(Duration.ofMillis(100), 600));
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Await.until(what, WAIT, condition::getAsBoolean);
  }

  /** Runs {@code statements} as one transaction. */
  static void commit(TestDatabase db, String... statements) throws SQLException {
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        for (String sql : statements) {
          s.execute(sql);
        }
      }
      c.commit();
    }
  }

  static Lsn lsn(TestDatabase db, String sql) {
    try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return Lsn.parse(r.getString(1));
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  static Lsn slotConfirmed(TestDatabase db, String slot) {
    return lsn(db, "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
  }

  /** One expected change: table, op, key, and whether it went out cut to its key. */
  record Expected(String table, ChangeOp op, String key, boolean oversized) {
    static Expected of(ChangeEvent e) {
      return new Expected(e.table(), ChangeOp.of(e), Changes.key(e), Changes.oversized(e));
    }
  }

  static Expected post(ChangeOp op, int id) {
    return new Expected("public.posts", op, POSTS.key(id), false);
  }

  static Expected like(ChangeOp op, int post, String user) {
    return new Expected("board.likes", op, LIKES.key(post, user), false);
  }

  @Test
  void everyChangeOfAMixedWorkloadArrivesOnceAndInOrderAndOneOverMaxPayloadAsItsKey(@TempDir Path dir)
      throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("nats_mixed");
        NatsServer nats = NatsServer.start(dir, Map.of("max_payload", "2048"));
        NatsTransport publishing = connect(nats);
        NatsTransport consuming = connect(nats)) {
      db.execute("CREATE TABLE posts (id int PRIMARY KEY, title text, body text);"
          + "CREATE SCHEMA board;"
          + "CREATE TABLE board.likes (post_id int, user_id text, PRIMARY KEY (post_id, user_id));");
      Consumer consumer = new Consumer(consuming);
      // A generous deadline: a flush that timed out on a busy machine would redeliver, and this test counts.
      try (Replicator r = replicator(db, "nats_mixed", publishing, Duration.ofSeconds(20))) {
        r.start();
        await("the replicator streams", () -> r.stats().state() == ReplicatorStats.State.STREAMING);
        List<Expected> expected = new ArrayList<>();
        commit(db, "INSERT INTO posts SELECT g, 'title ' || g, 'body ' || g FROM generate_series(1, 300) g");
        for (int i = 1; i <= 300; i++) {
          expected.add(post(ChangeOp.INSERT, i));
        }
        commit(db, "INSERT INTO board.likes VALUES (1, 'ada')", "INSERT INTO board.likes VALUES (1, 'alan')",
            "UPDATE posts SET title = 'liked' WHERE id = 1", "INSERT INTO board.likes VALUES (2, 'ada')");
        expected.addAll(List.of(like(ChangeOp.INSERT, 1, "ada"), like(ChangeOp.INSERT, 1, "alan"),
            post(ChangeOp.UPDATE, 1), like(ChangeOp.INSERT, 2, "ada")));
        commit(db, "UPDATE posts SET body = repeat('large ', 2000) WHERE id = 4");
        expected.add(new Expected("public.posts", ChangeOp.UPDATE, POSTS.key(4), true));
        commit(db, "DELETE FROM board.likes WHERE post_id = 1 AND user_id = 'alan'", "DELETE FROM posts WHERE id = 300",
            "UPDATE posts SET id = 1000 WHERE id = 299");
        expected.addAll(List.of(like(ChangeOp.DELETE, 1, "alan"), post(ChangeOp.DELETE, 300),
            post(ChangeOp.UPDATE, 1000)));
        commit(db, "INSERT INTO posts VALUES (2000, 'big', repeat('x', 5000))", "INSERT INTO board.likes VALUES "
            + "(2000, 'grace')");
        expected.addAll(List.of(new Expected("public.posts", ChangeOp.INSERT, POSTS.key(2000), true),
            like(ChangeOp.INSERT, 2000, "grace")));
        for (int i = 5; i <= 54; i++) {
          commit(db, "UPDATE posts SET title = 'edit' WHERE id = " + i, "INSERT INTO board.likes VALUES (" + i
              + ", 'ada')");
          expected.addAll(List.of(post(ChangeOp.UPDATE, i), like(ChangeOp.INSERT, i, "ada")));
        }

        List<BusMessage> seen = new ArrayList<>();
        List<ChangeEvent> changes = new ArrayList<>();
        for (int i = 0; i < expected.size(); i++) {
          changes.add(consumer.nextChange(seen));
        }
        // One more commit, then its change: nothing unexpected came in between.
        commit(db, "INSERT INTO board.likes VALUES (3, 'ada')");
        ChangeEvent marker = consumer.nextChange(seen);

        List<Expected> got = changes.stream().map(Expected::of).toList();
        ChangeEvent big = changes.get(304);
        ChangeEvent bigInsert = changes.get(308);
        assertAll(
            () -> assertEquals(expected, got, "every change once, in commit order"),
            () -> assertEquals(like(ChangeOp.INSERT, 3, "ada"), Expected.of(marker), "nothing more"),
            () -> assertEquals(Row.of(Map.of("id", 4)), row(big), "the oversized update carries its key"),
            () -> assertEquals(List.of("title", "body"), omitted(big), "and names the columns left out"),
            () -> assertEquals(Row.of(Map.of("id", 2000)), row(bigInsert), "so does the oversized insert"),
            () -> assertTrue(ascending(changes), "LSNs strictly rise"),
            () -> assertTrue(contiguous(seen), "seq counts every message 1, 2, 3… without a hole"),
            () -> assertTrue(consumer.subjects.contains("runnel.changes.board.likes")
                && consumer.subjects.contains("runnel.changes.public.posts"), "subjects per table"));
      }
    }
  }

  @Test
  void aServerKilledMidWorkloadConfirmsNothingTheBusMissedTellsConsumersAndLosesNothingCommitted(
      @TempDir Path dir) throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("nats_restart");
        NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport bus = connect(nats);
        NatsTransport other = connect(nats)) {
      db.execute("CREATE TABLE posts (id int PRIMARY KEY, title text, body text);"
          + "CREATE SCHEMA board;"
          + "CREATE TABLE board.likes (post_id int, user_id text, PRIMARY KEY (post_id, user_id));");
      // The replicator's own process reads the bus on its connection; another process (a sync node) on another
      // connection, re-reading the table when told of a reconnect, as a consumer must (fan-out is at most once).
      Consumer local = new Consumer(bus);
      Set<Integer> reread = ConcurrentHashMap.newKeySet();
      other.onReconnect(() -> reread.addAll(ids(db)));
      Consumer remote = new Consumer(other);
      try (Replicator r = replicator(db, "nats_restart", bus, Duration.ofSeconds(2))) {
        r.start();
        await("the replicator streams", () -> r.stats().state() == ReplicatorStats.State.STREAMING);
        for (int i = 1; i <= 100; i++) {
          commit(db, "INSERT INTO posts VALUES (" + i + ", 'before', 'b')");
        }
        Map<String, String> localSeen = new HashMap<>();
        Map<String, String> remoteSeen = new HashMap<>();
        List<String> localOrder = new ArrayList<>();
        collect(local, localSeen, localOrder, 1, 100);
        collect(remote, remoteSeen, new ArrayList<>(), 1, 100);
        await("the slot is confirmed through them", () -> r.stats().lagBytes() == 0);

        nats.kill();
        Lsn missedFrom = lsn(db, "SELECT pg_current_wal_insert_lsn()::text");
        for (int i = 101; i <= 200; i++) {
          commit(db, "INSERT INTO posts VALUES (" + i + ", 'while the bus is down', 'b')");
        }
        long restartsAfterCommits = r.stats().restarts();
        await("the replicator tried after the commits and was refused", () -> r.stats().restarts()
            >= restartsAfterCommits + 2);
        Lsn confirmedWhileDown = slotConfirmed(db, "nats_restart");
        String failure = r.stats().lastFailure();
        assertAll(
            () -> assertTrue(confirmedWhileDown.compareTo(missedFrom) <= 0, "the slot is not confirmed past what the "
                + "bus missed: " + confirmedWhileDown + " > " + missedFrom),
            () -> assertTrue(failure != null && failure.startsWith("X_TRANSPORT_UNAVAILABLE"), failure),
            () -> assertTrue(local.messages.stream().noneMatch(m -> m instanceof ChangeEvent),
                "nothing of the outage reached a consumer"));

        nats.startAgain();
        assertTrue(local.reconnected.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the local consumer is told");
        assertTrue(remote.reconnected.await(WAIT.toSeconds(), TimeUnit.SECONDS), "the remote consumer is told");
        collect(local, localSeen, localOrder, 101, 200);
        for (int i = 201; i <= 220; i++) {
          commit(db, "INSERT INTO posts VALUES (" + i + ", 'after', 'b')");
        }
        collect(local, localSeen, localOrder, 201, 220);
        collect(remote, remoteSeen, new ArrayList<>(), 201, 220);
        Set<Integer> remoteKnows = new HashSet<>(reread);
        remoteSeen.keySet().forEach(k -> remoteKnows.add(Integer.parseInt(k)));
        Set<Integer> all = new HashSet<>();
        for (int i = 1; i <= 220; i++) {
          all.add(i);
        }
        await("the slot advances past the outage", () -> slotConfirmed(db, "nats_restart").compareTo(missedFrom) > 0);
        assertAll(
            () -> assertTrue(ascending(localOrder), "first arrivals in commit order"),
            () -> assertEquals(all, remoteKnows, "the remote consumer has every row: by bus, or by its re-read"));
      }
    }
  }

  /** The ids of every post now. */
  static Set<Integer> ids(TestDatabase db) {
    Set<Integer> out = new HashSet<>();
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT id FROM posts")) {
      while (r.next()) {
        out.add(r.getInt(1));
      }
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  /**
   * Reads changes until every post id in [from, to] arrived; a redelivered change must carry the LSN it had the
   * first time. First arrivals' LSNs go to {@code order}.
   */
  static void collect(Consumer consumer, Map<String, String> lsnByKey, List<String> order, int from, int to)
      throws InterruptedException {
    Set<String> missing = new HashSet<>();
    for (int i = from; i <= to; i++) {
      if (!lsnByKey.containsKey(POSTS.key(i))) {
        missing.add(POSTS.key(i));
      }
    }
    List<BusMessage> seen = new ArrayList<>();
    while (!missing.isEmpty()) {
      ChangeEvent e = consumer.nextChange(seen);
      String before = lsnByKey.putIfAbsent(key(e), e.lsn().toString());
      if (before != null) {
        assertEquals(before, e.lsn().toString(), "a redelivered change of " + key(e) + " carries the identical LSN");
      } else {
        order.add(e.lsn().toString());
        missing.remove(key(e));
      }
    }
  }

  static boolean ascending(List<?> changesOrLsns) {
    @Nullable String last = null;
    for (Object o : changesOrLsns) {
      String lsn = o instanceof ChangeEvent c ? c.lsn().toString() : (String) o;
      if (last != null && lsn.compareTo(last) <= 0) {
        return false;
      }
      last = lsn;
    }
    return true;
  }

  static boolean contiguous(List<BusMessage> messages) {
    for (int i = 1; i < messages.size(); i++) {
      BusMessage a = messages.get(i - 1);
      BusMessage b = messages.get(i);
      if (!a.producer().equals(b.producer()) || b.seq() != a.seq() + 1) {
        return false;
      }
    }
    return true;
  }
}
