package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.gte;
import static io.runnel.dsl.Dsl.like;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.live.LiveStats;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.jspecify.annotations.Nullable;

/**
 * The most important test of the project: after every committed transaction, each subscriber's list rebuilt from
 * its frames alone equals a fresh read of its window's SQL (invariant 1), on real WAL through the replicator and
 * the in-process bus.
 *
 * <p>Each scenario has its own two tenants (orgs), starting rows, subscribers on random queries (filters, orders,
 * small limits, so rows leave full windows and refills happen) in both tenants, and a random workload: inserts,
 * updates of filtered and ordered columns, rows moving to the other tenant and changing key, deletes, multi-row
 * transactions, and updates that leave a large TOASTed column untouched. Windows keep one row beyond their limit,
 * so refills are exercised. After every commit a marker transaction proves the bus delivered it, the registry
 * settles, and every list is compared. Reads are counted: one per window, plus refills only after a row left.
 *
 * <p>Subscribers are actors of either tenant (two users each, one of them allowed drafts) on four declarations of the
 * same query: without a row rule, owner only, drafts hidden unless permitted, and one reading {@code n}, a column
 * most changes leave alone. Each list is compared with the fresh read filtered by the actor's rule.
 */
class LiveWindowDifferentialTest {

  static final EntityRef ITEMS = EntityRef.of("items").key("id")
      .columns(c -> c.int4("id").text("org").text("status").int4("n").text("title").text("owner").text("big"));
  static final Entity ITEMS_ENTITY = Entity.of(ITEMS).table("public.items").tenant("org");

  /** The random query's input: optional filters, an order and a limit. */
  record Input(@Nullable String status, @Nullable Integer minN, @Nullable String like, String order, boolean desc,
      int limit) {
    static final JsonCodec<Input> CODEC = JsonCodec.object(
        r -> new Input(r.optionalText("status"), r.optional("minN", JsonCodec.int4()), r.optionalText("like"),
            r.text("order"), r.bool("desc"), r.int4("limit")),
        (in, w) -> {
          w.put("status", in.status()).put("order", in.order()).put("desc", in.desc()).put("limit", in.limit())
              .put("like", in.like());
          if (in.minN() != null) {
            w.put("minN", in.minN());
          }
        });
  }

  static final Function<Input, Select> SOURCE = in -> {
    Select s = select(ITEMS);
    if (in.status() != null) {
      s = s.where(eq("status", in.status()));
    }
    if (in.minN() != null) {
      s = s.where(gte("n", in.minN()));
    }
    if (in.like() != null) {
      s = s.where(like("title", in.like()));
    }
    return s.orderBy(in.desc() ? desc(in.order()) : asc(in.order())).limit(in.limit());
  };

  /** The same query under four policies: no row rule, owner only, drafts for the permitted, and n not negative. */
  static final List<Query<Input>> QUERIES = List.of(
      Query.of(QueryRef.live("items", Input.CODEC, SOURCE)).on(ITEMS_ENTITY).policy(Policy.authenticated()),
      Query.of(QueryRef.live("owned", Input.CODEC, SOURCE)).on(ITEMS_ENTITY)
          .policy(Policy.authenticated().visible((actor, row) -> actor.id().equals(row.get("owner")))),
      Query.of(QueryRef.live("published", Input.CODEC, SOURCE)).on(ITEMS_ENTITY)
          .policy(Policy.authenticated().visible((actor, row) -> !"draft".equals(row.get("status"))
              || actor.can("drafts"))),
      Query.of(QueryRef.live("positive", Input.CODEC, SOURCE)).on(ITEMS_ENTITY)
          .policy(Policy.authenticated().visible((actor, row) -> row.get("n") == null || (Integer) row.get("n") >= 0)));
  static final Declarations DECLARATIONS = declarations();

  private static Declarations declarations() {
    Declarations.Builder b = Declarations.builder();
    QUERIES.forEach(b::query);
    return b.build();
  }

  /** User {@code user} (0 or 1) of {@code org}; user 1 may see drafts. */
  static Actor actor(String org, int user) {
    Actor a = Actor.user("u" + user).inOrg(org);
    return user == 1 ? a.withPermissions("drafts") : a;
  }

  static TestDatabase db;
  static LiveFixture fixture;
  static final AtomicInteger scenarios = new AtomicInteger();
  static final AtomicLong commits = new AtomicLong();

  @BeforeContainer
  static void start() throws Exception {
    db = EmbeddedPostgresServer.shared().createDatabase("live_differential");
    db.execute("CREATE TABLE items (id int PRIMARY KEY, org text, status text, n int, title text, owner text, "
        + "big text)");
    fixture = new LiveFixture(db, "live_differential", List.of(ITEMS_ENTITY));
  }

  @AfterContainer
  static void stop() {
    fixture.close();
    db.close();
    assertTrue(scenarios.get() >= 200, "at least 200 scenarios ran: " + scenarios.get());
  }

  /** One subscription: which of the scenario's two orgs, which user, which of the four queries, and the input. */
  record Sub(int org, int user, int query, Input input) {}

  /** One statement of a workload; {@code slot} picks an existing row. */
  record Step(String kind, int slot, @Nullable String status, @Nullable Integer n, @Nullable String title) {}

  /** A whole scenario. */
  record Scenario(List<Step> initial, List<Sub> subs, List<List<Step>> transactions) {}

  @Property(tries = 200, shrinking = ShrinkingMode.BOUNDED)
  void everySubscribersListEqualsAFreshReadAfterEveryCommit(@ForAll("scenarios") Scenario scenario) throws Exception {
    int id = scenarios.incrementAndGet();
    String[] orgs = {"s" + id + "a", "s" + id + "b"};
    Workload w = new Workload(id, orgs);
    StringBuilder sql = new StringBuilder();
    for (Step s : scenario.initial()) {
      sql.append(w.sql(s));
    }
    if (sql.length() > 0) {
      fixture.commit(sql.toString());
    }
    try (LiveQueryRegistry registry = LiveQueryRegistry.builder().declarations(DECLARATIONS).dataSource(fixture.pool)
        .transport(fixture.bus).extraRows(1).build()) {
      registry.start();
      RecordingSubscriber recorder = new RecordingSubscriber();
      List<String> sids = new ArrayList<>();
      for (int i = 0; i < scenario.subs().size(); i++) {
        Sub sub = scenario.subs().get(i);
        String sid = "sub" + i;
        registry.subscribe(recorder, sid, actor(orgs[sub.org()], sub.user()), QUERIES.get(sub.query()).name(),
            Input.CODEC.encode(sub.input()));
        sids.add(sid);
      }
      for (String sid : sids) {
        LiveFixture.await(sid + " has its snapshot", () -> recorder.stream(sid).snapshots == 1);
      }
      check(registry, recorder, scenario, orgs, "after the snapshots");
      LiveStats start = registry.stats();
      for (int t = 0; t < scenario.transactions().size(); t++) {
        StringBuilder tx = new StringBuilder();
        for (Step s : scenario.transactions().get(t)) {
          tx.append(w.sql(s));
        }
        Position lsn = fixture.commit(tx.toString());
        commits.incrementAndGet();
        LiveFixture.awaitSettled(registry, lsn);
        check(registry, recorder, scenario, orgs, "after transaction " + (t + 1) + ": " + tx);
      }
      LiveStats end = registry.stats();
      Statistics.label("refills").collect(end.refills() - start.refills() > 0 ? "some" : "none");
      Statistics.label("windows").collect(end.windows());
      assertEquals(end.windows(), end.firstReads(), "one first read per window, however many subscribers: " + end);
      assertEquals(0, end.rereads(), "no re-reads: " + end);
      assertTrue(end.refills() <= end.leavingDeliveries() + end.partialEntries(),
          "a refill only after a row left a window or would have entered without its TOASTed columns (a node "
              + "re-reading on every change fails this): " + end);
    }
  }

  private static void check(LiveQueryRegistry registry, RecordingSubscriber recorder, Scenario scenario, String[] orgs,
      String when) throws Exception {
    for (int i = 0; i < scenario.subs().size(); i++) {
      Sub sub = scenario.subs().get(i);
      String org = orgs[sub.org()];
      Query<Input> q = QUERIES.get(sub.query());
      Actor actor = actor(org, sub.user());
      Select window = q.select(sub.input(), actor).where(eq("org", org));
      List<WireRecord> expected = new ArrayList<>();
      for (WireRecord r : fixture.freshRead(ITEMS_ENTITY, window)) {
        if (q.policy().visible(actor, ITEMS.rowFromJson(r.row(), "row"))) {
          expected.add(r);
        }
      }
      RecordingSubscriber.Stream stream = recorder.stream("sub" + i);
      assertNull(stream.error, "sub" + i + " frames are well formed " + when + ": " + stream.frames);
      assertNull(stream.refusal, "sub" + i + " was not refused");
      assertEquals(expected, recorder.list("sub" + i), "sub" + i + " (" + org + ", " + sub + ") " + when
          + "\nframes: " + stream.frames);
    }
  }

  /** Turns steps into SQL for one scenario's rows, tracking which ids exist. */
  static final class Workload {
    private final String[] orgs;
    private final List<Integer> ids = new ArrayList<>();
    private int next;

    Workload(int scenario, String[] orgs) {
      this.orgs = orgs;
      this.next = scenario * 1000;
    }

    String sql(Step s) {
      if (s.kind().equals("insert") || ids.isEmpty()) {
        int id = next++;
        ids.add(id);
        return "INSERT INTO items VALUES (" + id + ", '" + orgs[s.slot() % 2] + "', " + lit(s.status()) + ", "
            + lit(s.n()) + ", " + lit(s.title()) + ", 'u" + (s.slot() / 2 % 2) + "', NULL);";
      }
      int index = s.slot() % ids.size();
      int id = ids.get(index);
      return switch (s.kind()) {
        case "status" -> "UPDATE items SET status = " + lit(s.status()) + " WHERE id = " + id + ";";
        case "n" -> "UPDATE items SET n = " + lit(s.n()) + " WHERE id = " + id + ";";
        case "title" -> "UPDATE items SET title = " + lit(s.title()) + " WHERE id = " + id + ";";
        case "owner" -> "UPDATE items SET owner = CASE WHEN owner = 'u0' THEN 'u1' ELSE 'u0' END"
            + " WHERE id = " + id + ";";
        case "move" -> "UPDATE items SET org = CASE WHEN org = '" + orgs[0] + "' THEN '" + orgs[1] + "' ELSE '"
            + orgs[0] + "' END WHERE id = " + id + ";";
        case "rekey" -> {
          int fresh = next++;
          ids.set(index, fresh);
          yield "UPDATE items SET id = " + fresh + " WHERE id = " + id + ";";
        }
        case "delete" -> {
          ids.remove(index);
          yield "DELETE FROM items WHERE id = " + id + ";";
        }
        case "big" -> "UPDATE items SET big = (SELECT string_agg(md5(g::text || " + id + "), '') FROM "
            + "generate_series(1, 200) g) WHERE id = " + id + ";";
        default -> throw new IllegalArgumentException(s.kind());
      };
    }

    private static String lit(@Nullable Object v) {
      if (v == null) {
        return "NULL";
      }
      return v instanceof String t ? "'" + t.replace("'", "''") + "'" : v.toString();
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<String> status = Arbitraries.of("open", "closed", "draft").injectNull(0.15);
    // Statistics of the rules in use, so a run shows every shape was exercised.
    Arbitrary<Integer> n = Arbitraries.integers().between(-2, 6).injectNull(0.15);
    Arbitrary<String> title = Arbitraries.of("a", "B", "ab", "é", "Z", "b%", "").injectNull(0.15);
    Arbitrary<Step> insert = Combinators.combine(Arbitraries.integers().between(0, 99), status, n, title)
        .as((slot, st, nn, ti) -> new Step("insert", slot, st, nn, ti));
    Arbitrary<Step> step = Combinators.combine(
        Arbitraries.of("insert", "insert", "status", "n", "title", "owner", "move", "rekey", "delete", "big"),
        Arbitraries.integers().between(0, 99), status, n, title).as(Step::new);
    Arbitrary<Input> input = Combinators.combine(
        Arbitraries.of("open", "closed").injectNull(0.5),
        Arbitraries.integers().between(-1, 4).injectNull(0.6),
        Arbitraries.of("a%", "%b%", "_", "%").injectNull(0.75),
        Arbitraries.of("id", "n", "title", "status"),
        Arbitraries.of(true, false),
        Arbitraries.integers().between(1, 5)).as(Input::new);
    Arbitrary<Sub> sub = Combinators.combine(Arbitraries.integers().between(0, 1), Arbitraries.integers().between(0, 1),
        Arbitraries.integers().between(0, 3), input).as(Sub::new);
    return Combinators.combine(
        insert.list().ofMinSize(0).ofMaxSize(10),
        sub.list().ofMinSize(2).ofMaxSize(5),
        step.list().ofMinSize(1).ofMaxSize(4).list().ofMinSize(3).ofMaxSize(8)).as(Scenario::new);
  }
}
