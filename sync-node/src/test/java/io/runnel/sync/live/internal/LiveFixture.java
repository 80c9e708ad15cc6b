package io.runnel.sync.live.internal;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.runnel.bus.InProcessTransport;
import io.runnel.bus.Subjects;
import io.runnel.dsl.Actor;
import io.runnel.dsl.Column;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.SqlRenderer;
import io.runnel.dsl.server.SqlStatement;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.replicator.BusEnvelope;
import io.runnel.replicator.ChangeEvent;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.testing.Await;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.postgresql.PGStatement;

/**
 * The real parts a live-window test runs on: a test database, the replicator streaming its WAL onto an in-process
 * bus, a connection pool for window reads, and a tracker of which transactions the bus has delivered.
 */
final class LiveFixture implements AutoCloseable {

  static final Duration WAIT = Duration.ofSeconds(30);

  final TestDatabase db;
  final InProcessTransport bus = InProcessTransport.create();
  final HikariDataSource pool;
  final Replicator replicator;
  /** The LSN of the last change of each transaction the bus delivered, by 32-bit xid. */
  final Map<Long, Position> lastLsnByXid = new ConcurrentHashMap<>();

  LiveFixture(TestDatabase db, String slot, List<Entity> entities) throws InterruptedException {
    this.db = db;
    db.execute(MARKER_TABLE);
    List<Entity> published = new ArrayList<>(entities);
    published.add(MARKER_ENTITY);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.jdbcUrl());
    config.setUsername("postgres");
    config.setPassword("postgres");
    config.setMaximumPoolSize(8);
    this.pool = new HikariDataSource(config);
    bus.subscribe(Subjects.ALL_CHANGES, m -> {
      if (BusEnvelope.decode(m.payload(), n -> null) instanceof ChangeEvent e && e.last()) {
        lastLsnByXid.put(e.xid(), e.lsn());
      }
    });
    this.replicator = Replicator.builder().database(DatabaseUrl.parse("test", db.jdbcUrl())).slot(slot)
        .publication(slot).entities(published).transport(bus).build();
    replicator.start();
    await("the replicator streams", () -> replicator.stats().state() == ReplicatorStats.State.STREAMING);
  }

  /** A published table of markers: a marker commit after a transaction proves the bus delivered it. */
  static final EntityRef MARKER = EntityRef.of("live_marker").key("id").columns(c -> c.int8("id"));
  static final Entity MARKER_ENTITY = Entity.of(MARKER).table("public.live_marker");
  static final String MARKER_TABLE = "CREATE TABLE IF NOT EXISTS live_marker (id bigserial PRIMARY KEY);";

  /**
   * Runs {@code sql} in one transaction, then a marker transaction, and returns the marker's LSN once the bus
   * delivered it: every change of {@code sql} is on the bus before that LSN.
   */
  Position commit(String sql) throws SQLException, InterruptedException {
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute(sql);
      }
      c.commit();
    }
    return marker();
  }

  /** Waits until the bus delivered the transaction with 32-bit id {@code xid}; returns its last change's LSN. */
  Position awaitTransaction(long xid) throws InterruptedException {
    await("the bus delivers transaction " + xid, () -> lastLsnByXid.containsKey(xid));
    return lastLsnByXid.get(xid);
  }

  /** Commits a marker and waits until the bus delivered it; returns its LSN. */
  Position marker() throws SQLException, InterruptedException {
    long xid;
    try (Connection c = db.connect()) {
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        try (ResultSet r = s.executeQuery("SELECT txid_current()")) {
          r.next();
          xid = r.getLong(1) & 0xffffffffL;
        }
        s.execute("INSERT INTO live_marker DEFAULT VALUES");
      }
      c.commit();
    }
    await("the bus delivers marker transaction " + xid, () -> lastLsnByXid.containsKey(xid));
    return lastLsnByXid.get(xid);
  }

  /** Waits until {@code registry} turned every change up to {@code lsn} into frames. */
  static void awaitSettled(LiveQueryRegistry registry, Position lsn) throws InterruptedException {
    await("the registry settles through " + lsn, () -> registry.settledThrough(lsn));
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    await(what, WAIT, condition);
  }

  /** Polls {@code condition} until it holds, failing once {@code within} has passed. */
  static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
    Await.until(() -> what, within, Duration.ofMillis(2), condition::getAsBoolean);
  }

  /** A fresh read of {@code select} (the window's SQL, tenant pinned) as records, in query order. */
  List<WireRecord> freshRead(Entity entity, Select select) throws SQLException {
    SqlStatement sql = SqlRenderer.render(entity, select, null);
    EntityRef ref = entity.ref();
    List<WireRecord> out = new ArrayList<>();
    try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement(sql.sql())) {
      s.unwrap(PGStatement.class).setPrepareThreshold(0);
      WindowReader.bind(s, sql);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          Map<String, String> text = new LinkedHashMap<>();
          List<Column> columns = ref.columns();
          for (int i = 0; i < columns.size(); i++) {
            text.put(columns.get(i).name(), r.getString(i + 1));
          }
          Row row = ref.rowFromText(text);
          out.add(new WireRecord(ref.name(), ref.keyOf(row), ref.rowToJson(row)));
        }
      }
    }
    return out;
  }

  static Actor actor(String org) {
    return Actor.user("user-" + org).inOrg(org);
  }

  /** A started registry of {@code declarations} reading this fixture's bus and pool, with default settings. */
  LiveQueryRegistry registry(Declarations declarations) {
    LiveQueryRegistry r = LiveQueryRegistry.builder().declarations(declarations).dataSource(pool).transport(bus)
        .build();
    r.start();
    return r;
  }

  @Override
  public void close() {
    replicator.stop();
    bus.close();
    pool.close();
  }
}
