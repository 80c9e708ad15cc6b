package io.runnel.sync.auth;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.runnel.dsl.Actor;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ManualClock;
import io.runnel.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link TicketStore#postgres}: a ticket claimed once across stores on one real database, concurrent claims with one
 * winner, claims swept a minute after their ticket expired, and the table made idempotently.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresTicketStoreTest {

  static final byte[] KEY = "a-shared-ticket-key-of-32-bytes!".getBytes(StandardCharsets.UTF_8);

  TestDatabase db;
  HikariDataSource pool;

  @BeforeAll
  void start(TestDatabase db) {
    this.db = db;
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(db.jdbcUrl());
    hc.setDataSourceProperties(db.credentials());
    hc.setMaximumPoolSize(12);
    pool = new HikariDataSource(hc);
  }

  @AfterAll
  void stop() {
    pool.close();
  }

  long rows() throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM runnel.tickets")) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void aTicketIssuedByOneNodeIsRedeemedOnceWhicheverNodeTriesIt() throws Exception {
    ManualClock clock = ManualClock.now();
    Tickets a = Tickets.create(KEY, TicketStore.postgres(pool, clock), clock);
    Tickets b = Tickets.create(KEY, TicketStore.postgres(pool, clock), clock);
    long grantExpiresAt = clock.millis() + 3_600_000;
    Tickets.Issued issued = a.issue(new Actor("ada", "acme", Set.of("admin"), Set.of()), grantExpiresAt);
    Grant first = b.redeem(issued.ticket());
    Grant againOnB = b.redeem(issued.ticket());
    Grant againOnA = a.redeem(issued.ticket());
    assertAll(
        () -> assertNotNull(first, "node B honours node A's ticket"),
        () -> assertEquals("ada", first.actor().id()),
        () -> assertEquals("acme", first.actor().orgId()),
        () -> assertEquals(Set.of("admin"), first.actor().roles()),
        () -> assertEquals(grantExpiresAt, first.expiresAt(),
            "the socket holds the issuing grant until its own expiry, not the ticket's 30 s"),
        () -> assertNull(againOnB, "used once, on B"),
        () -> assertNull(againOnA, "and so refused on A, which issued it"));
  }

  @Test
  void aTicketSignedWithAnotherKeyIsRefusedWithoutBeingClaimed() throws Exception {
    ManualClock clock = ManualClock.now();
    TicketStore store = TicketStore.postgres(pool, clock);
    Tickets other = Tickets.create(
        "another-key-another-key-another!!".getBytes(StandardCharsets.UTF_8),
        store, clock);
    Tickets ours = Tickets.create(KEY, store, clock);
    long before = rows();
    Tickets.Issued foreign = other.issue(new Actor("eve", "acme", Set.of(), Set.of()), Long.MAX_VALUE);
    assertAll(
        () -> assertNull(ours.redeem(foreign.ticket()), "a node with another key refuses it"),
        () -> assertEquals(before, rows(), "and records nothing"));
  }

  @Test
  void manyConcurrentClaimsOfOneTicketHaveExactlyOneWinner() throws Exception {
    ManualClock clock = ManualClock.now();
    List<TicketStore> stores = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      stores.add(TicketStore.postgres(pool, clock));
    }
    int claimers = 16;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService threads = Executors.newFixedThreadPool(claimers);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < claimers; i++) {
        TicketStore store = stores.get(i % stores.size());
        Callable<Boolean> claim = () -> {
          go.await();
          return store.claim("contested", clock.millis() + 30_000);
        };
        results.add(threads.submit(claim));
      }
      go.countDown();
      int won = 0;
      for (Future<Boolean> r : results) {
        won += r.get() ? 1 : 0;
      }
      assertEquals(1, won, "one claim of 16, over four stores, wins");
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void claimsAreSweptAMinuteAfterTheirTicketExpiredAndNotBefore() throws Exception {
    ManualClock clock = ManualClock.now();
    TicketStore store = TicketStore.postgres(pool, clock);
    long now = clock.millis();
    assertTrue(store.claim("sweep-old", now + 30_000));
    assertTrue(store.claim("sweep-young", now + 200_000));
    clock.advance(Duration.ofSeconds(30 + 61));
    assertTrue(store.claim("sweep-trigger", clock.millis() + 30_000), "this claim runs the sweep");
    assertAll(
        () -> assertEquals(0, count("sweep-old"), "expired over a minute ago: swept"),
        () -> assertEquals(1, count("sweep-young"), "not yet expired: kept"),
        () -> assertEquals(1, count("sweep-trigger"), "the claim that swept stands"),
        () -> assertFalse(store.claim("sweep-young", now + 200_000), "a kept claim still refuses its ticket"));
  }

  @Test
  void makingTheStoreTwiceKeepsTheClaimsAlreadyMade() throws Exception {
    ManualClock clock = ManualClock.now();
    assertTrue(TicketStore.postgres(pool, clock).claim("kept", clock.millis() + 30_000));
    TicketStore again = TicketStore.postgres(pool, clock);
    assertFalse(again.claim("kept", clock.millis() + 30_000), "CREATE ... IF NOT EXISTS leaves the rows");
  }

  long count(String id) throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM runnel.tickets WHERE id = '" + id + "'")) {
      r.next();
      return r.getLong(1);
    }
  }
}
