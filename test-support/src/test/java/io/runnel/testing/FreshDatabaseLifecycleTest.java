package io.runnel.testing;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** A {@link FreshDatabase} class gets one database for all its tests, and it is gone when the class ends. */
class FreshDatabaseLifecycleTest {

  @Test
  void aClassSharesOneDatabaseAndItIsDroppedWhenTheClassEnds() throws SQLException {
    OneClass.SEEN.clear();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(OneClass.class)).build(), listener);
    TestExecutionSummary summary = listener.getSummary();

    List<String> seen = List.copyOf(OneClass.SEEN);
    assertAll(
        () -> assertEquals(2, summary.getTestsSucceededCount(), "both tests of the class ran and passed: "
            + summary.getFailures().stream().map(f -> f.getException().toString()).toList()),
        () -> assertEquals(2, seen.size(), "each test saw a database"),
        () -> assertEquals(1, new HashSet<>(seen).size(), "the tests of one class share one database: " + seen));
    try (Connection admin = EmbeddedPostgresServer.shared().adminConnection()) {
      assertEquals(0, databasesNamed(admin, seen.get(0)), "database " + seen.get(0) + " is dropped after the class");
    }
  }

  @Test
  void databasesCreatedAtOnceWithALongPrefixGetDistinctNamesWithinPostgresLimit() throws Exception {
    String prefix = "AVeryLongTestClassNameThatWouldPushTheDatabaseNamePastPostgresLimitOf63Bytes";
    int threads = 6;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<TestDatabase> made = new CopyOnWriteArrayList<>();
    try {
      List<Future<TestDatabase>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Callable<TestDatabase> create = () -> {
          start.await();
          TestDatabase db = EmbeddedPostgresServer.shared().createDatabase(prefix);
          made.add(db);
          return db;
        };
        futures.add(pool.submit(create));
      }
      start.countDown();
      Set<String> names = new HashSet<>();
      for (Future<TestDatabase> f : futures) {
        names.add(f.get().name());
      }
      assertAll(
          () -> assertEquals(threads, names.size(), "every database has its own name: " + names),
          () -> assertTrue(names.stream().allMatch(n -> n.length() <= 63), "within 63 bytes: " + names),
          () -> assertTrue(names.stream().allMatch(n -> n.startsWith("t_averylong")), "lower case: " + names));
    } finally {
      pool.shutdownNow();
      made.forEach(TestDatabase::close);
    }
  }

  private static int databasesNamed(Connection c, String name) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
      s.setString(1, name);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  /** Run by the test above through the JUnit launcher (surefire skips nested classes); it records its database. */
  @FreshDatabase
  static class OneClass {
    static final List<String> SEEN = new CopyOnWriteArrayList<>();

    @Test
    void first(TestDatabase db) throws SQLException {
      record(db);
    }

    @Test
    void second(TestDatabase db) throws SQLException {
      record(db);
    }

    private static void record(TestDatabase db) throws SQLException {
      try (Connection admin = db.server().adminConnection()) {
        assertEquals(1, databasesNamed(admin, db.name()), "the database exists while the class runs");
      }
      SEEN.add(db.name());
    }
  }
}
