package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.bus.Subjects;
import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.replicator.BusEnvelope;
import io.runnel.replicator.ChangeEvent;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.PositionEvent;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonString;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change over NATS's {@code max_payload} reaches the node as its key alone ({@code oversized}): a window that held
 * the row, or that the row now enters or leaves, re-reads, so its list ends as the database has it, never with the
 * row's old values merged in (which is what an unchanged TOASTed column would mean).
 */
@FreshDatabase
class OversizedChangeTest {

  static final EntityRef TASKS = EntityRef.of("tasks").key("id")
      .columns(c -> c.int4("id").text("org_id").text("status").text("title").int4("rank"));
  static final Entity TASKS_ENTITY = Entity.of(TASKS).table("public.tasks").tenant("org_id");

  record ByStatus(String status) {
    static final JsonCodec<ByStatus> CODEC = JsonCodec.object(r -> new ByStatus(r.text("status")),
        (in, w) -> w.put("status", in.status()));
  }

  static final QueryRef<ByStatus> BY_STATUS = QueryRef.live("byStatus", ByStatus.CODEC,
      in -> select(TASKS).where(eq("status", in.status())).orderBy(asc("rank")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(BY_STATUS).on(TASKS_ENTITY).policy(Policy.authenticated())).build();

  static final String LONG = "x".repeat(5000);

  @Test
  void aWindowReReadsOnAChangeThatCameAsItsKeyAloneAndEndsAsTheDatabase(TestDatabase db, @TempDir Path dir)
      throws Exception {
    db.execute("CREATE TABLE tasks (id int PRIMARY KEY, org_id text, status text, title text, rank int);"
        + "INSERT INTO tasks VALUES (1, 'acme', 'open', 'short', 1), (2, 'acme', 'open', 'short', 2)");
    HikariConfig pc = new HikariConfig();
    pc.setJdbcUrl(db.jdbcUrl());
    pc.setUsername("postgres");
    pc.setPassword("postgres");
    try (NatsServer nats = NatsServer.start(dir, Map.of("max_payload", "2048"));
        NatsTransport replicatorBus = NatsTransport.connect(NatsConfig.parse("test", nats.url()));
        NatsTransport nodeBus = NatsTransport.connect(NatsConfig.parse("test", nats.url()));
        HikariDataSource pool = new HikariDataSource(pc);
        Replicator replicator = Replicator.builder().database(DatabaseUrl.parse("test", db.jdbcUrl()))
            .slot("oversized").publication("oversized").entities(List.of(TASKS_ENTITY)).transport(replicatorBus)
            .build();
        LiveQueryRegistry registry = LiveQueryRegistry.builder().declarations(DECLARATIONS).dataSource(pool)
            .transport(nodeBus).build()) {
      AtomicInteger oversized = new AtomicInteger();
      nodeBus.subscribe(Subjects.ALL_CHANGES, m -> {
        boolean cut = switch (BusEnvelope.decode(m.payload(), n -> null)) {
          case ChangeEvent.Insert i -> i.oversized();
          case ChangeEvent.Update u -> u.oversized();
          case ChangeEvent.Delete d -> d.oversized();
          case ChangeEvent.Truncate t -> false;
          case PositionEvent p -> false;
        };
        if (cut) {
          oversized.incrementAndGet();
        }
      });
      registry.start();
      replicator.start();
      LiveFixture.await("the replicator streams", () -> replicator.stats().state() == ReplicatorStats.State.STREAMING);
      RecordingSubscriber rec = new RecordingSubscriber();
      registry.subscribe(rec, "s", Actor.user("ada").inOrg("acme"), "byStatus",
          ByStatus.CODEC.encode(new ByStatus("open")));
      LiveFixture.await("the snapshot", () -> rec.stream("s").snapshots == 1);

      db.execute("UPDATE tasks SET title = '" + LONG + "' WHERE id = 1");
      db.execute("INSERT INTO tasks VALUES (3, 'acme', 'open', '" + LONG + "', 3)");
      db.execute("UPDATE tasks SET status = 'closed', title = '" + LONG + "' WHERE id = 2");
      db.execute("UPDATE tasks SET title = 'short again' WHERE id = 3");

      LiveFixture.await("three oversized changes and the list as the database has it",
          () -> oversized.get() == 3 && keysAndTitles(rec).equals(List.of("1:" + LONG.length(), "3:11")));
      assertAll(
          () -> assertEquals(List.of("1:" + LONG.length(), "3:11"), keysAndTitles(rec),
              "1 re-read with its new title, 3 entered, 2 left, 3's later small update applied"),
          () -> assertEquals(3, oversized.get(), "three changes came as their key alone"));
    }
  }

  private static List<String> keysAndTitles(RecordingSubscriber rec) {
    return rec.list("s").stream()
        .map(r -> r.key() + ":" + ((JsonString) r.row().get("title")).value().length()).toList();
  }
}
