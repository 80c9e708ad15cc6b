package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.gte;
import static io.runnel.dsl.Dsl.like;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonObject;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Hostile input (bad input never costs others): many raw sockets of
 * many actors send at least 100,000 random and mutated frames ({@link HostileFrames}) to one node on the real
 * PostgreSQL and replicator, while a writer commits rows and one well-behaved client watches a live query. No
 * handler ever throws out ({@code runnel_handler_failures_total} stays 0, no {@code X_INTERNAL}), every answer to a
 * hostile client is a well-formed frame or a close, the node's heap after GC grows by less than 64 MiB, every socket,
 * subscription, topic and actor slot the hostile clients took is given back, and the well-behaved client receives
 * every commit's patch during the storm, in order, its list ending equal to a fresh read.
 *
 * <p>The frames come from a seed, printed; rerun one with {@code -Dhostile.seed=<seed>} (also {@code
 * -Dhostile.frames}, default 100,000, and {@code -Dhostile.sockets}, default 100).
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");

  /** The {@code notesFrom} query's input. */
  record From(int min, int limit, @Nullable String like) {
    static final JsonCodec<From> CODEC = JsonCodec.object(
        r -> new From(r.int4("min"), r.int4("limit"), r.optionalText("like")),
        (in, w) -> w.put("min", in.min()).put("limit", in.limit()).put("like", in.like()));
  }

  static final Declarations DECLARATIONS = declarations();

  private static Declarations declarations() {
    Declarations.Builder b = Declarations.builder()
        .query(Query.of(QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id"))))
            .on(NOTES_ENTITY).policy(Policy.authenticated()))
        .query(Query.of(QueryRef.live("notesFrom", From.CODEC, in -> {
          Select s = select(NOTES).where(gte("id", in.min()));
          // A careful app bounds an input's limit; one out of 1-10,000 is refused as X_INPUT_INVALID.
          return (in.like() == null ? s : s.where(like("body", in.like()))).orderBy(asc("id"))
              .limit(Math.max(1, Math.min(in.limit(), 100)));
        })).on(NOTES_ENTITY).policy(Policy.authenticated()))
        .query(Query.of(QueryRef.live("brokenRule", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id"))))
            .on(NOTES_ENTITY).policy(Policy.authenticated().visible((actor, row) -> {
              throw new IllegalStateException("the app's row rule broke");
            })));
    ChannelFixture.DECLARATIONS.channels().forEach(b::channel);
    return b.build();
  }

  final long seed = Long.getLong("hostile.seed", System.nanoTime());
  final int frames = Integer.getInteger("hostile.frames", 100_000);
  final int sockets = Integer.getInteger("hostile.sockets", 100);
  LiveFixtureAccess fixture;
  SyncNode node;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text, body text)");
    fixture = LiveFixtureAccess.start(db, "hostile", List.of(NOTES_ENTITY));
    node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(ChannelFixture.IDENTITIES).nodeId("hostile").listen("127.0.0.1", 0).build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
  }

  /** Client {@code i}'s token: about three sockets an actor, of orgs acme, evil or none; every tenth anonymous. */
  static @Nullable String token(int i) {
    return i % 10 == 9 ? null : "h" + (i % 30) + "@" + List.of("acme", "evil", "").get(i % 3);
  }

  @Test
  void aStormOfHostileFramesEscapesNoHandlerLeaksNothingAndCostsAWellBehavedClientNoPatch() throws Exception {
    System.out.println("HostileInputTest seed=" + seed + " (rerun with -Dhostile.seed=" + seed + ")");
    NotesWriter writer = new NotesWriter(fixture, seed);
    writer.seed();
    WatchingClient good = WatchingClient.subscribe(node.port(), "good@acme", "notes");
    long heapBefore = usedHeapAfterGc();

    Tally tally = new Tally();
    List<Future<Void>> storm = new ArrayList<>();
    int stormCommits;
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < sockets; i++) {
        storm.add(threads.submit(new HostileClient(node.port(), token(i), seed + i, frames / sockets + 1, tally)));
      }
      while (!storm.stream().allMatch(Future::isDone)) {
        if (writer.step()) {
          int expected = writer.acmeCommits();
          LiveFixtureAccess.await("the watching client has the patch of commit " + expected + " during the storm",
              () -> good.patches() >= expected || good.firstProblem() != null);
        }
      }
      stormCommits = writer.acmeCommits();
      for (Future<Void> f : storm) {
        f.get();
      }
    }
    System.out.println("HostileInputTest seed=" + seed + ": " + tally);

    while (!writer.step()) {
      // one more commit of acme's after the storm
    }
    int expected = writer.acmeCommits();
    LiveFixtureAccess.await("the last patch arrives", () -> good.patches() >= expected);
    good.roundTrip();
    LiveFixtureAccess.await("the node holds only the watching client's socket", () -> node.sockets() == 1);
    String metrics = metrics();
    long heapAfter = usedHeapAfterGc();
    System.out.println("HostileInputTest heap after GC: " + heapBefore / 1024 + " KiB before the storm, "
        + heapAfter / 1024 + " KiB after; " + stormCommits + " commits during the storm");
    List<RawSocket.Upgrade> again = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      again.add(RawSocket.attempt(node.port(), Map.of("Authorization", "Bearer " + token(0)), 0));
    }
    assertAll("seed " + seed + ", " + tally,
        () -> assertTrue(tally.get("messages") >= frames, "at least " + frames + " messages were sent"),
        () -> assertEquals(0.0, metric(metrics, "runnel_handler_failures_total"), "no handler threw out"),
        () -> assertEquals(0, tally.get("refuse:X_INTERNAL"), "no refusal was an internal failure"),
        () -> assertEquals(Map.of(), tally.under("bad:"), "every frame the node sent was well formed"),
        // X_TIMEOUT: a sub that reached a window just as its last subscriber's unsub closed it ("subscribe again").
        () -> assertTrue(Set.of("X_FRAME_INVALID", "X_FRAME_RATE_LIMIT", "X_INPUT_INVALID", "X_PROTOCOL_VERSION",
            "X_LIVE_QUERY_UNKNOWN", "X_SUBSCRIPTION_ID_TAKEN", "X_SUBSCRIPTION_LIMIT", "X_FORBIDDEN",
            "X_TOPIC_FORBIDDEN", "X_TENANCY_ACTOR_ORG_REQUIRED", "X_TIMEOUT")
            .containsAll(tally.under("refuse:").keySet()), "every refusal has a code for bad input: "
            + tally.under("refuse:")),
        () -> assertTrue(tally.get("refuse:X_FRAME_RATE_LIMIT") > 0, "the floods were refused"),
        () -> assertEquals(List.of(), good.problems(), "the watching client saw nothing wrong"),
        () -> assertEquals(1, good.snapshots(), "the watching client never needed a second snapshot"),
        () -> assertTrue(stormCommits >= 10, "commits were made during the storm: " + stormCommits),
        () -> assertEquals(expected, good.patches(), "one patch per commit that touched acme's notes"),
        () -> assertEquals(writer.freshRead("acme"), good.list(), "the list equals a fresh read"),
        () -> assertEquals(1.0, metric(metrics, "runnel_sockets"), "the hostile sockets are all let go"),
        () -> assertEquals(1.0, metric(metrics, "runnel_subscriptions"), "only the watching client's subscription"),
        () -> assertEquals(0.0, metric(metrics, "runnel_channel_topics"), "no topic is left"),
        () -> assertTrue(heapAfter - heapBefore < 64L * 1024 * 1024, "the heap after GC grew by "
            + (heapAfter - heapBefore) / 1024 + " KiB"),
        () -> assertTrue(again.stream().allMatch(u -> u.status() == 101),
            "an actor of the storm opens its 16 sockets again: its slots were all given back"));
    for (RawSocket.Upgrade u : again) {
      u.close();
    }
    good.close();
  }

  static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  String metrics() throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port()
        + "/metrics")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The value of the series {@code name} (without labels) in Prometheus text, or NaN when it is missing. */
  static double metric(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    return Double.NaN;
  }

  /** Commits random changes to {@code notes} of orgs acme and evil, counting the commits that touch acme's rows. */
  static final class NotesWriter {
    private final LiveFixtureAccess fixture;
    private final SplittableRandom r;
    private final TreeMap<Integer, String> orgs = new TreeMap<>();
    private int acmeCommits;
    private int version;

    NotesWriter(LiveFixtureAccess fixture, long seed) {
      this.fixture = fixture;
      this.r = new SplittableRandom(seed ^ 0x5eed);
    }

    /** Twenty rows of each org. */
    void seed() throws Exception {
      StringBuilder sql = new StringBuilder();
      for (int id = 1; id <= 40; id++) {
        String org = id % 2 == 0 ? "acme" : "evil";
        orgs.put(id, org);
        // 's' + id, never 'a' or 'b' + a version: an update writing the very body a row holds changes nothing, and
        // the watching client, rightly, gets no patch for it (seed 2143777087982 wrote 'a14' over 'a14').
        sql.append("INSERT INTO notes VALUES (").append(id).append(", '").append(org).append("', 's").append(id)
            .append("');");
      }
      fixture.commit(sql.toString());
    }

    /** Commits one to three changes in one transaction; true when one of them touched acme's rows. */
    boolean step() throws Exception {
      StringBuilder sql = new StringBuilder();
      boolean acme = false;
      int n = 1 + r.nextInt(3);
      Set<Integer> touched = new HashSet<>();
      for (int i = 0; i < n; i++) {
        int id = 1 + r.nextInt(80);
        if (!touched.add(id)) {
          continue;
        }
        String org = orgs.get(id);
        if (org == null) {
          org = r.nextInt(10) < 7 ? "acme" : "evil";
          orgs.put(id, org);
          sql.append("INSERT INTO notes VALUES (").append(id).append(", '").append(org).append("', 'a")
              .append(++version).append("');");
        } else if (r.nextBoolean()) {
          sql.append("UPDATE notes SET body = '").append(r.nextBoolean() ? "a" : "b").append(++version)
              .append("' WHERE id = ").append(id).append(';');
        } else {
          orgs.remove(id);
          sql.append("DELETE FROM notes WHERE id = ").append(id).append(';');
        }
        acme |= org.equals("acme");
      }
      fixture.commit(sql.toString());
      if (acme) {
        acmeCommits++;
      }
      return acme;
    }

    int acmeCommits() {
      return acmeCommits;
    }

    /** The org's notes as the watching client's records, read fresh. */
    List<JsonObject> freshRead(String org) throws Exception {
      List<JsonObject> out = new ArrayList<>();
      try (Connection c = fixture.pool().getConnection(); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, org, body FROM notes WHERE org = '" + org + "' ORDER BY id")) {
        while (rs.next()) {
          out.add(JsonObject.builder().put("type", "notes").put("key", Integer.toString(rs.getInt(1)))
              .put("row", JsonObject.builder().put("id", rs.getInt(1)).put("org", rs.getString(2))
                  .put("body", rs.getString(3)).build()).build());
        }
      }
      return out;
    }
  }
}
