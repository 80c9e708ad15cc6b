package io.runnel.sync.http.internal;

import io.runnel.sync.SyncNode;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.TestDatabase;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The write tests' world: {@link WriteDeclarations}' schema on a fresh database, a replicator onto an in-process
 * bus, and a started node on a free port with the test authenticator.
 */
final class WriteFixture implements AutoCloseable {

  final TestDatabase db;
  final LiveFixtureAccess live;
  final SyncNode node;
  final HttpCalls http;

  WriteFixture(TestDatabase db, String slot, String seedSql) throws Exception {
    this.db = db;
    WriteDeclarations.database = db;
    db.execute(WriteDeclarations.SCHEMA + seedSql);
    this.live = LiveFixtureAccess.start(db, slot, List.of(WriteDeclarations.NOTES_ENTITY));
    this.node = node(b -> b);
    this.http = new HttpCalls(node.port());
  }

  /** Another started node on the same database and bus, with {@code options} applied to its builder. */
  SyncNode node(UnaryOperator<SyncNode.Builder> options) {
    SyncNode n = options.apply(SyncNode.builder().declarations(WriteDeclarations.declarations())
        .transport(live.bus()).dataSource(live.pool()).authenticator(TestIdentities.authenticator())
        .listen("127.0.0.1", 0)).build();
    n.start();
    return n;
  }

  @Override
  public void close() {
    node.stop();
    live.close();
  }
}
