package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.Actor;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Credentials;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ManualClock;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.testing.Tokens;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Identity over time: a socket's grant is decided again on the node's clock while it is open,
 * on real sockets, a real PostgreSQL and a manual clock that the node's sweeper reads each second.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrantRefreshTest {

  static final EntityRef NOTES = EntityRef.of("grant_notes").key("id")
      .columns(c -> c.int4("id").text("org").bool("published").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.grant_notes").tenant("org");
  /** Readers only: the policy asks for {@code notes:read}. */
  static final QueryRef<NoInput> READER = QueryRef.live("readerNotes", NoInput.CODEC,
      in -> select(NOTES).orderBy(asc("id")));
  /** Everyone signed in; editors see drafts too, the others published notes only. */
  static final QueryRef<NoInput> DESK = QueryRef.live("deskNotes", NoInput.CODEC,
      in -> select(NOTES).orderBy(asc("id")));
  /** Everyone signed in, every note of the org. */
  static final QueryRef<NoInput> ALL = QueryRef.live("allNotes", NoInput.CODEC,
      in -> select(NOTES).orderBy(asc("id")));
  /** Editors only. */
  static final ChannelRef EDITORS = ChannelRef.of("editors", "deskId");
  /** Everyone. */
  static final ChannelRef LOBBY = ChannelRef.of("lobby");
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(READER).on(NOTES_ENTITY).policy(Policy.can("notes:read")))
      .query(Query.of(DESK).on(NOTES_ENTITY).policy(Policy.authenticated().visible(
          (actor, row) -> actor.roles().contains("editor") || Boolean.TRUE.equals(row.bool("published")))))
      .query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated()))
      .channel(Channel.of(EDITORS).events("ping").policy(Policy.role("editor")))
      .channel(Channel.of(LOBBY).events("wave").policy(Policy.allowPublic()))
      .build();

  /** What the test's authenticator answers to a refresh: a grant, null, or a throw. */
  @FunctionalInterface
  interface Refresh {
    @Nullable Grant apply(Grant current) throws Exception;
  }

  /**
   * The app's authenticator, as a test writes one: a bearer token is an actor id, its grant the one the test
   * seated; a refresh answers as the test scripted for that actor (by default null: cannot refresh).
   */
  final class Directory implements Authenticator {
    final Map<String, Grant> grants = new ConcurrentHashMap<>();
    final Map<String, Refresh> refreshes = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

    @Override
    public @Nullable Grant authenticate(Credentials credentials) {
      return credentials.token() == null ? null : grants.get(credentials.token());
    }

    @Override
    public @Nullable Grant refresh(Grant current) throws Exception {
      asked.computeIfAbsent(current.actor().id(), id -> new AtomicInteger()).incrementAndGet();
      Refresh r = refreshes.get(current.actor().id());
      return r == null ? null : r.apply(current);
    }
  }

  static final Actor EDITOR = new Actor("ed", "acme", Set.of("editor"), Set.of("notes:read"));
  static final Actor DEMOTED = new Actor("ed", "acme", Set.of(), Set.of());

  ManualClock clock;
  Directory directory;
  LiveFixtureAccess fixture;
  SyncNode node;
  final List<ProtocolClient<JsonObject>> clients = new ArrayList<>();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE grant_notes (id int PRIMARY KEY, org text, published boolean, body text)");
    fixture = LiveFixtureAccess.start(db, "grants", List.of(NOTES_ENTITY));
    fixture.commit("INSERT INTO grant_notes VALUES (1, 'acme', true, 'one'), (2, 'acme', false, 'two'),"
        + " (3, 'acme', true, 'three'), (4, 'globex', true, 'theirs')");
  }

  @AfterAll
  void stop() {
    fixture.close();
  }

  @AfterEach
  void stopNode() {
    for (ProtocolClient<JsonObject> c : clients) {
      c.abort();
    }
    clients.clear();
    if (node != null) {
      node.stop();
      node = null;
    }
  }

  /** A node on a manual clock standing at 2026-12-02 10:00 UTC, authenticating with {@code authenticator}. */
  void startNode(Authenticator authenticator) {
    node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(authenticator).clock(clock).listen("127.0.0.1", 0).nodeId("grants-node")
        .limits(new SocketLimits(256 * 1024, 1024 * 1024, 32, Duration.ofHours(1), Duration.ofSeconds(10)))
        .build();
    node.start();
  }

  void startDirectoryNode() {
    clock = ManualClock.at(Instant.parse("2026-12-02T10:00:00Z"));
    directory = new Directory();
    startNode(directory);
  }

  ProtocolClient<JsonObject> connect(String query) {
    ProtocolClient<JsonObject> c = ProtocolClient.to(node.port()).target("/v1/sync" + query).open(Sockets::json);
    clients.add(c);
    return c;
  }

  /**
   * A socket signed in with {@code token}, open on the node: its first {@code hello} was answered, so the node had
   * opened it (and started watching its grant) before the test moves the clock. The client's upgrade alone does not
   * say that: a clock moved in between schedules the socket's first check past every later advance (a failed CI run
   * of {@link #aRefreshThatRevokesOrNamesAnotherActorClosesTheSocket1008}, under a full suite's load).
   */
  ProtocolClient<JsonObject> connectAs(String token) throws InterruptedException {
    ProtocolClient<JsonObject> c = Sockets.open(node.port(), Map.of("Authorization", "Bearer " + token));
    clients.add(c);
    JsonObject hello = helloOf(c);
    assertEquals("hello", SyncNodeTest.t(hello), () -> "the node answered the first hello: " + hello);
    return c;
  }

  /** Subscribes {@code q} as {@code sid} and waits for its snapshot; answers the record keys. */
  static List<String> sub(ProtocolClient<JsonObject> c, String sid, String q) throws InterruptedException {
    c.send("{\"t\":\"sub\",\"sid\":\"" + sid + "\",\"q\":\"" + q + "\",\"in\":{}}");
    JsonObject f = c.next();
    assertEquals("snapshot", SyncNodeTest.t(f), () -> sid + " answered with a snapshot: " + f);
    return keys(f);
  }

  /** Joins {@code topic} and waits for its roster. */
  static void join(ProtocolClient<JsonObject> c, String topic) throws InterruptedException {
    c.send("{\"t\":\"join\",\"topic\":\"" + topic + "\"}");
    JsonObject f = c.next();
    assertEquals("presence", SyncNodeTest.t(f), () -> topic + " answered with its roster: " + f);
  }

  static List<String> keys(JsonObject snapshot) {
    List<String> keys = new ArrayList<>();
    for (JsonValue r : ((JsonArray) snapshot.get("records")).elements()) {
      keys.add(((JsonString) ((JsonObject) r).get("key")).value());
    }
    return keys;
  }

  /** The keys of acme's notes as PostgreSQL reads them now, drafts included or not. */
  List<String> notesInDatabase(boolean drafts) throws Exception {
    List<String> keys = new ArrayList<>();
    try (Connection conn = fixture.pool().getConnection(); Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT id FROM grant_notes WHERE org = 'acme'"
            + (drafts ? "" : " AND published") + " ORDER BY id")) {
      while (rs.next()) {
        keys.add(rs.getString(1));
      }
    }
    return keys;
  }

  /** The value of counter {@code series} (name and labels as Prometheus prints them) at {@code /metrics}. */
  double metric(String series) throws Exception {
    String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + node.port() + "/metrics")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(text);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  void awaitMetric(String series, double atLeast) throws Exception {
    LiveFixtureAccess.await(series + " reaches " + atLeast, () -> {
      try {
        return metric(series) >= atLeast;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  static final String KEPT = "runnel_grant_checks_total{outcome=\"kept\"}";
  static final String CHANGED = "runnel_grant_checks_total{outcome=\"changed\"}";
  static final String FAILURES = "runnel_grant_refresh_failures_total";

  @Test
  void aRevokedRoleAndPermissionRefuseExactlyWhatTheyCoveredAndTheRestIsSnapshottedForTheNewActor()
      throws Exception {
    startDirectoryNode();
    directory.grants.put("ed", new Grant(EDITOR, clock.millis() + Duration.ofHours(1).toMillis()));
    ProtocolClient<JsonObject> c = connectAs("ed");
    List<String> readerBefore = sub(c, "reader", "readerNotes");
    List<String> deskBefore = sub(c, "desk", "deskNotes");
    List<String> allBefore = sub(c, "all", "allNotes");
    join(c, EDITORS.topic(Map.of("deskId", "front")));
    join(c, LOBBY.topic(Map.of()));
    directory.refreshes.put("ed", current -> new Grant(DEMOTED, current.expiresAt()));

    clock.advance(Duration.ofSeconds(31));
    Map<String, JsonObject> bySid = new HashMap<>();
    Map<String, JsonObject> byTopic = new HashMap<>();
    while (bySid.size() < 3 || byTopic.size() < 1) {
      JsonObject f = c.next();
      if (f.get("sid") instanceof JsonString sid) {
        assertNull(bySid.put(sid.value(), f), () -> "one frame for " + sid.value());
      } else {
        byTopic.put(((JsonString) f.get("topic")).value(), f);
      }
    }
    awaitMetric(CHANGED, 1);
    List<JsonObject> after = ChannelFixture.until(c);
    JsonObject reader = bySid.get("reader");
    JsonObject desk = bySid.get("desk");
    JsonObject all = bySid.get("all");
    JsonObject editors = byTopic.get(EDITORS.topic(Map.of("deskId", "front")));
    List<String> published = notesInDatabase(false);
    List<String> every = notesInDatabase(true);
    assertAll(
        () -> assertEquals(List.of("1", "2", "3"), deskBefore, "an editor saw the draft"),
        () -> assertEquals(every, readerBefore),
        () -> assertEquals(every, allBefore),
        () -> assertEquals("refuse", SyncNodeTest.t(reader), "the permission the reader query asked for is gone"),
        () -> assertEquals("X_FORBIDDEN", SyncNodeTest.str(reader, "code")),
        () -> assertEquals("refuse", SyncNodeTest.t(editors), "the role the editors channel asked for is gone"),
        () -> assertEquals("X_FORBIDDEN", SyncNodeTest.str(editors, "code")),
        () -> assertEquals("snapshot", SyncNodeTest.t(desk), "the desk query survives, under its row rule"),
        () -> assertEquals(published, keys(desk), "the new actor's row rule hides the draft"),
        () -> assertEquals("snapshot", SyncNodeTest.t(all), "the all query survives"),
        () -> assertEquals(every, keys(all), "the same rows for the new actor"),
        () -> assertTrue(after.isEmpty(), () -> "nothing else was sent (the lobby kept quiet): " + after));

    fixture.commit("INSERT INTO grant_notes VALUES (5, 'acme', false, 'draft five'), (6, 'acme', true, 'six')");
    Map<String, JsonObject> patches = new HashMap<>();
    while (patches.size() < 2) {
      JsonObject f = c.next();
      patches.put(SyncNodeTest.str(f, "sid"), f);
    }
    c.send("{\"t\":\"sub\",\"sid\":\"reader2\",\"q\":\"readerNotes\",\"in\":{}}");
    c.send(ChannelFixture.join(EDITORS.topic(Map.of("deskId", "back")), null));
    JsonObject subAgain = c.next();
    JsonObject joinAgain = c.next();
    assertAll(
        () -> assertEquals(Set.of("desk", "all"), patches.keySet(), "the survivors are live"),
        () -> assertEquals(1, ((JsonArray) patches.get("desk").get("ops")).size(), "the desk sees only six"),
        () -> assertEquals(2, ((JsonArray) patches.get("all").get("ops")).size(), "all sees five and six"),
        () -> assertEquals("X_FORBIDDEN", SyncNodeTest.str(subAgain, "code"), "new subs are decided as the new actor"),
        () -> assertEquals("X_FORBIDDEN", SyncNodeTest.str(joinAgain, "code"), "so are new joins"));
  }

  @Test
  void aRefreshThatKeepsTheActorKeepsTheSocketAndResendsNothingPastTheOldExpiry() throws Exception {
    startDirectoryNode();
    long firstExpiry = clock.millis() + Duration.ofSeconds(50).toMillis();
    directory.grants.put("ed", new Grant(EDITOR, firstExpiry));
    ProtocolClient<JsonObject> c = connectAs("ed");
    sub(c, "all", "allNotes");
    join(c, EDITORS.topic(Map.of("deskId", "front")));
    directory.refreshes.put("ed", current -> new Grant(EDITOR, clock.millis() + Duration.ofHours(1).toMillis()));

    clock.advance(Duration.ofSeconds(31));
    awaitMetric(KEPT, 1);
    List<JsonObject> first = ChannelFixture.until(c);
    clock.advance(Duration.ofSeconds(30));
    awaitMetric(KEPT, 2);
    List<JsonObject> second = ChannelFixture.until(c);
    assertAll(
        () -> assertTrue(first.isEmpty(), () -> "nothing resent: " + first),
        () -> assertTrue(second.isEmpty(), () -> "past the first grant's expiry, still nothing: " + second),
        () -> assertTrue(clock.millis() > firstExpiry, "the first grant has expired by now"),
        () -> assertFalse(c.closedByNode().isDone(), "the socket stays"),
        () -> assertEquals(2, directory.asked.get("ed").get(), "one refresh per check"));
  }

  @Test
  void aRefreshThatThrowsKeepsTheSocketAndTheNextCheckRetriesAndApplies() throws Exception {
    startDirectoryNode();
    directory.grants.put("ed", new Grant(EDITOR, clock.millis() + Duration.ofHours(1).toMillis()));
    ProtocolClient<JsonObject> c = connectAs("ed");
    sub(c, "reader", "readerNotes");
    AtomicInteger calls = new AtomicInteger();
    directory.refreshes.put("ed", current -> {
      if (calls.incrementAndGet() == 1) {
        throw new IOException("the user directory is down");
      }
      return new Grant(DEMOTED, current.expiresAt());
    });

    clock.advance(Duration.ofSeconds(31));
    awaitMetric(FAILURES, 1);
    List<JsonObject> meanwhile = ChannelFixture.until(c);
    clock.advance(Duration.ofSeconds(30));
    JsonObject refused = c.next();
    assertAll(
        () -> assertTrue(meanwhile.isEmpty(), () -> "the failed check changed nothing: " + meanwhile),
        () -> assertEquals("refuse", SyncNodeTest.t(refused), "the retry applied the revocation"),
        () -> assertEquals("reader", SyncNodeTest.str(refused, "sid")),
        () -> assertEquals("X_FORBIDDEN", SyncNodeTest.str(refused, "code")),
        () -> assertFalse(c.closedByNode().isDone(), "the socket stays"),
        () -> assertEquals(1, metric(FAILURES)));
  }

  /**
   * An expired grant whose refresh throws is kept and asked again within the grace (60 s past its expiry): the
   * authenticator is down, not refusing, and closing every socket at once would send every client to an upgrade the
   * same authenticator cannot decide either.
   */
  @Test
  void anExpiredGrantWhoseRefreshThrowsIsRetriedWithinTheGraceAndKeptWhenARetrySucceeds() throws Exception {
    startDirectoryNode();
    directory.grants.put("ed", new Grant(EDITOR, clock.millis() + Duration.ofSeconds(40).toMillis()));
    ProtocolClient<JsonObject> c = connectAs("ed");
    sub(c, "all", "allNotes");
    AtomicInteger calls = new AtomicInteger();
    directory.refreshes.put("ed", current -> {
      if (calls.incrementAndGet() <= 2) {
        throw new IOException("the user directory is down");
      }
      return new Grant(EDITOR, clock.millis() + Duration.ofHours(1).toMillis());
    });

    clock.advance(Duration.ofSeconds(31));
    awaitMetric(FAILURES, 1);
    clock.advance(Duration.ofSeconds(10));
    awaitMetric(FAILURES, 2);
    List<JsonObject> expired = ChannelFixture.until(c);
    clock.advance(Duration.ofSeconds(30));
    awaitMetric(KEPT, 1);
    List<JsonObject> renewed = ChannelFixture.until(c);
    assertAll(
        () -> assertTrue(expired.isEmpty() && renewed.isEmpty(), "nothing sent while failing, nor once renewed"),
        () -> assertEquals(3, calls.get(), "at 30 s, at the expiry (40 s), then 30 s later"),
        () -> assertFalse(c.closedByNode().isDone(), "the socket stays"));
  }

  @Test
  void anExpiredGrantWhoseRefreshKeepsThrowingIsClosed1008OnceTheGraceRunsOut() throws Exception {
    startDirectoryNode();
    directory.grants.put("ed", new Grant(EDITOR, clock.millis() + Duration.ofSeconds(40).toMillis()));
    ProtocolClient<JsonObject> c = connectAs("ed");
    sub(c, "all", "allNotes");
    directory.refreshes.put("ed", current -> {
      throw new IOException("the user directory is down");
    });
    clock.advance(Duration.ofSeconds(41));
    awaitMetric(FAILURES, 1);
    clock.advance(Duration.ofSeconds(30));
    awaitMetric(FAILURES, 2);
    boolean openWithinGrace = !c.closedByNode().isDone();
    clock.advance(Duration.ofSeconds(30));
    assertAll(
        () -> assertTrue(openWithinGrace, "kept within the grace"),
        () -> assertEquals(1008, c.closedByNode().get(30, TimeUnit.SECONDS), "closed once 60 s past the expiry"));
  }

  @Test
  void aRefreshThatRevokesOrNamesAnotherActorClosesTheSocket1008() throws Exception {
    startDirectoryNode();
    long hour = Duration.ofHours(1).toMillis();
    directory.grants.put("ed", new Grant(EDITOR, clock.millis() + hour));
    directory.grants.put("al", new Grant(new Actor("al", "acme", Set.of(), Set.of()), clock.millis() + hour));
    directory.grants.put("bo", new Grant(new Actor("bo", "acme", Set.of(), Set.of()), clock.millis() + hour));
    ProtocolClient<JsonObject> ed = connectAs("ed");
    ProtocolClient<JsonObject> al = connectAs("al");
    ProtocolClient<JsonObject> bo = connectAs("bo");
    directory.refreshes.put("ed", current -> new Grant(current.actor(), clock.millis()));
    directory.refreshes.put("al", current -> new Grant(new Actor("mallory", "acme", Set.of(), Set.of()),
        current.expiresAt()));
    directory.refreshes.put("bo", current -> null);
    clock.advance(Duration.ofSeconds(31));
    awaitMetric(KEPT, 1);
    JsonObject boHello = helloOf(bo);
    assertAll(
        () -> assertEquals(1008, ed.closedByNode().get(30, TimeUnit.SECONDS), "a grant that has expired revokes"),
        () -> assertEquals(1008, al.closedByNode().get(30, TimeUnit.SECONDS), "another actor is another socket"),
        () -> assertEquals("hello", SyncNodeTest.t(boHello), "null before the expiry keeps the grant"),
        () -> assertEquals("bo", SyncNodeTest.str(boHello, "actor")),
        () -> assertEquals(2, metric("runnel_grant_checks_total{outcome=\"closed\"}")));
  }

  @Test
  void anActorMovedToAnotherOrgIsSnapshottedThatOrgsRowsAndOneLeftWithoutAnOrgIsRefused() throws Exception {
    startDirectoryNode();
    long hour = Duration.ofHours(1).toMillis();
    directory.grants.put("mo", new Grant(new Actor("mo", "acme", Set.of(), Set.of()), clock.millis() + hour));
    directory.grants.put("lo", new Grant(new Actor("lo", "acme", Set.of(), Set.of()), clock.millis() + hour));
    ProtocolClient<JsonObject> mover = connectAs("mo");
    ProtocolClient<JsonObject> loner = connectAs("lo");
    List<String> before = sub(mover, "all", "allNotes");
    sub(loner, "all", "allNotes");
    directory.refreshes.put("mo", current -> new Grant(current.actor().inOrg("globex"), current.expiresAt()));
    directory.refreshes.put("lo", current -> new Grant(current.actor().inOrg(null), current.expiresAt()));
    clock.advance(Duration.ofSeconds(31));
    JsonObject moved = mover.next();
    JsonObject alone = loner.next();
    List<String> globex = new ArrayList<>();
    try (Connection conn = fixture.pool().getConnection(); Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT id FROM grant_notes WHERE org = 'globex' ORDER BY id")) {
      while (rs.next()) {
        globex.add(rs.getString(1));
      }
    }
    assertAll(
        () -> assertEquals(notesInDatabase(true), before),
        () -> assertEquals("snapshot", SyncNodeTest.t(moved)),
        () -> assertEquals(globex, keys(moved), "the window of the new org, not a row of the old one"),
        () -> assertTrue(SyncNodeTest.str((JsonObject) moved.get("cursor"), "qid").endsWith("@globex"),
            () -> "the cursor names the new tenant: " + moved),
        () -> assertEquals("refuse", SyncNodeTest.t(alone)),
        () -> assertEquals("X_TENANCY_ACTOR_ORG_REQUIRED", SyncNodeTest.str(alone, "code")));
  }

  static JsonObject helloOf(ProtocolClient<JsonObject> c) throws InterruptedException {
    c.send("{\"t\":\"hello\",\"v\":1}");
    return c.next();
  }

  static final String SECRET = SyncNodeTest.SECRET;

  String jwt(String user, long expiresAt) throws Exception {
    return Tokens.hs256(SECRET).subject(user).org("acme").expiresAt(Instant.ofEpochMilli(expiresAt)).sign();
  }

  @Test
  void aTokenSocketAndATicketSocketAreClosed1008AtTheTokensExpiryNotTheTicketsOrBefore() throws Exception {
    clock = ManualClock.at(Instant.parse("2026-12-02T10:00:00Z"));
    startNode(JwtAuthenticator.hs256(SECRET).clock(clock).skew(Duration.ZERO).build());
    String token = jwt("jo", clock.millis() + Duration.ofSeconds(70).toMillis());
    ProtocolClient<JsonObject> bearer = connectAs(token);
    HttpResponse<String> issued = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + node.port() + "/v1/tickets")).header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    ProtocolClient<JsonObject> ticketed = connect("?ticket=" + SyncNodeTest.str(Sockets.json(issued.body()), "ticket"));
    sub(bearer, "all", "allNotes");
    sub(ticketed, "all", "allNotes");

    clock.advance(Duration.ofSeconds(31));
    awaitMetric(KEPT, 2);
    JsonObject bearerHello = helloOf(bearer);
    JsonObject ticketHello = helloOf(ticketed);
    clock.advance(Duration.ofSeconds(30));
    awaitMetric(KEPT, 4);
    boolean openBeforeExpiry = !bearer.closedByNode().isDone() && !ticketed.closedByNode().isDone();
    clock.advance(Duration.ofSeconds(10));
    assertAll(
        () -> assertEquals("hello", SyncNodeTest.t(bearerHello)),
        () -> assertEquals("hello", SyncNodeTest.t(ticketHello), "past the ticket's own 30 s, still open"),
        () -> assertTrue(openBeforeExpiry, "open until the token's exp"),
        () -> assertEquals(1008, bearer.closedByNode().get(30, TimeUnit.SECONDS), "closed at the token's exp"),
        () -> assertEquals(1008, ticketed.closedByNode().get(30, TimeUnit.SECONDS), "and so is the ticket's socket"));
  }

  @Test
  void theNodeRefusesAGrantCheckIntervalUnderOneMillisecondAndANegativeGrace() {
    assertAll(
        () -> Assertions.assertThrows(IllegalArgumentException.class,
            () -> SyncNode.builder().grantCheck(Duration.ZERO)),
        () -> Assertions.assertThrows(IllegalArgumentException.class,
            () -> SyncNode.builder().grantGrace(Duration.ofSeconds(-1))));
  }
}
