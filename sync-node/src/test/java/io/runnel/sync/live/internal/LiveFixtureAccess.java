package io.runnel.sync.live.internal;

import io.runnel.bus.InProcessTransport;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Position;
import io.runnel.testing.TestDatabase;
import java.util.List;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/** The live-window test fixture, opened to tests of other packages. */
public final class LiveFixtureAccess implements AutoCloseable {

  private final LiveFixture fixture;

  private LiveFixtureAccess(LiveFixture fixture) {
    this.fixture = fixture;
  }

  /** A replicator on {@code db} publishing {@code entities} to an in-process bus, and a pool. */
  public static LiveFixtureAccess start(TestDatabase db, String slot, List<Entity> entities) throws Exception {
    return new LiveFixtureAccess(new LiveFixture(db, slot, entities));
  }

  /** The bus. */
  public InProcessTransport bus() {
    return fixture.bus;
  }

  /** The pool. */
  public DataSource pool() {
    return fixture.pool;
  }

  /** Commits {@code sql} and a marker; returns the marker's LSN once the bus delivered it. */
  public Position commit(String sql) throws Exception {
    return fixture.commit(sql);
  }

  /** Polls {@code condition} until it holds, failing the test after the fixture's deadline. */
  public static void await(String what, BooleanSupplier condition) throws InterruptedException {
    LiveFixture.await(what, condition);
  }

  @Override
  public void close() {
    fixture.close();
  }
}
