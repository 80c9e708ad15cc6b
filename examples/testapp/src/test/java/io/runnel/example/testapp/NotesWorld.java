package io.runnel.example.testapp;

import com.microsoft.playwright.BrowserContext;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.runnel.bus.InProcessTransport;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.SyncNode;
import io.runnel.testing.Await;
import io.runnel.testing.Chromium;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Everything a browser test runs on, started by the test itself: the app's schema on a fresh database of the JVM's
 * embedded PostgreSQL, the replicator streaming its WAL onto an in-process bus, a pool, the app's node
 * ({@link NotesServer#node}, serving the page) on a port that stays the same across {@link #stopNode()} and
 * {@link #startNode()}, and one headless Chromium, launched by the first {@link #newContext()}. (sync-node's tests have
 * the same replicator-onto-a-bus fixture, {@code LiveFixture}, in their test sources, which this module cannot reach;
 * this is the few lines it needs.)
 */
final class NotesWorld implements AutoCloseable {

  /** The org every page here signs in to, through the token {@code ada@acme}. */
  static final String ORG = "acme";

  final TestDatabase db;
  final HikariDataSource pool;
  final InProcessTransport bus = InProcessTransport.create();
  final Replicator replicator;
  private final int port;
  private @Nullable Chromium chromium;
  private @Nullable SyncNode node;

  NotesWorld(TestDatabase db) throws InterruptedException {
    this.db = db;
    db.execute(NotesServer.SCHEMA);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.jdbcUrl());
    config.setUsername("postgres");
    config.setPassword("postgres");
    config.setMaximumPoolSize(6);
    this.pool = new HikariDataSource(config);
    this.replicator = Replicator.builder().database(DatabaseUrl.parse("test", db.jdbcUrl())).slot("notes")
        .publication("notes").entities(NotesServer.ENTITIES).transport(bus).build();
    replicator.start();
    awaitStreaming();
    SyncNode first = NotesServer.node(pool, bus).listen("127.0.0.1", 0).build();
    first.start();
    this.node = first;
    this.port = first.port();
  }

  /** Waits until the slot exists and streams: a commit before that would never reach the bus. */
  private void awaitStreaming() throws InterruptedException {
    Await.until(() -> "the replicator streams: " + replicator.stats(), Duration.ofSeconds(30),
        () -> replicator.stats().state() == ReplicatorStats.State.STREAMING);
  }

  /** The page's URL for list {@code listId}, signed in as {@code ada@acme}. */
  String pageUrl(String listId) {
    return origin() + "/?list=" + listId + "&token=ada@" + ORG;
  }

  /**
   * A fresh browser context: its own storage (the outbox's) and Web Locks, shared by the pages opened in it. The
   * first call launches Chromium.
   */
  BrowserContext newContext() {
    if (chromium == null) {
      chromium = Chromium.launch();
    }
    return chromium.newContext();
  }

  /** The node's base URL, {@code http://127.0.0.1:<port>}. */
  String origin() {
    return "http://127.0.0.1:" + port;
  }

  /** Stops the node: its sockets close and its port stops answering; the replicator and the bus go on. */
  synchronized void stopNode() {
    SyncNode n = node;
    node = null;
    if (n != null) {
      n.stop();
    }
  }

  /** Starts a new node of the app on the same port. */
  synchronized void startNode() {
    if (node != null) {
      throw new IllegalStateException("The node is running");
    }
    SyncNode n = NotesServer.node(pool, bus).listen("127.0.0.1", port).build();
    n.start();
    node = n;
  }

  /** Commits a note straight into the table, as another writer would; returns its id. */
  UUID insert(String org, String listId, String title) throws SQLException {
    UUID id = UUID.randomUUID();
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(
            "INSERT INTO notes (id, org_id, list_id, title) VALUES (?, ?, ?, ?)")) {
      s.setObject(1, id);
      s.setString(2, org);
      s.setString(3, listId);
      s.setString(4, title);
      s.executeUpdate();
    }
    return id;
  }

  /** The titles of {@code listId}'s notes in the table, oldest first. */
  List<String> titles(String listId) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement("SELECT title FROM notes WHERE list_id = ? ORDER BY created_at, id")) {
      s.setString(1, listId);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(r.getString(1));
        }
      }
    }
    return out;
  }

  @Override
  public void close() {
    try {
      if (chromium != null) {
        chromium.close();
      }
    } finally {
      stopNode();
      replicator.stop();
      bus.close();
      pool.close();
    }
  }
}
