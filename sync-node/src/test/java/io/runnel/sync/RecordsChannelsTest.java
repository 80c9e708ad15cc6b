package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;
import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.until;
import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Position;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.live.internal.LossyTransport;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Records channels end to end: the replicator streams a real PostgreSQL's WAL onto an in-process bus, the node reads
 * it (through a transport that can lose a message, for a bus gap), and real sockets join the topics. {@code cards}
 * has REPLICA IDENTITY FULL; {@code rc_notes} keeps DEFAULT, so its old rows carry the key only. Each test uses orgs
 * (topics) of its own.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordsChannelsTest {

  static final EntityRef CARDS = EntityRef.of("cards").key("id").columns(c -> c.int8("id").text("org").text("title"));
  static final Entity CARDS_ENTITY = Entity.of(CARDS).table("public.cards").tenant("org");
  /** The table of {@link #CARDS_ENTITY}, with REPLICA IDENTITY FULL (a move between orgs names its old org). */
  static final String CARDS_TABLE = """
      CREATE TABLE cards (id int8 PRIMARY KEY, org text NOT NULL, title text NOT NULL);
      ALTER TABLE cards REPLICA IDENTITY FULL;
      """;
  static final EntityRef NOTES = EntityRef.of("rc_notes").key("id").columns(c -> c.int4("id").text("org").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.rc_notes").tenant("org");
  static final EntityRef PINS = EntityRef.of("rc_pins").key("id").columns(c -> c.int4("id").text("org"));
  static final Entity PINS_ENTITY = Entity.of(PINS).table("public.rc_pins").tenant("org");

  record OrgIn(String orgId) {
    static final JsonCodec<OrgIn> CODEC = JsonCodec.object(r -> new OrgIn(r.text("orgId")),
        (in, w) -> w.put("orgId", in.orgId()));
  }

  static final QueryRef<OrgIn> BOARD_CARDS = QueryRef.live("boardCards", OrgIn.CODEC,
      in -> select(CARDS).where(eq("org", in.orgId())).orderBy(asc("id")));
  static final QueryRef<OrgIn> ORG_NOTES = QueryRef.once("orgNotes", OrgIn.CODEC,
      in -> select(NOTES).where(eq("org", in.orgId())).orderBy(asc("id")));
  static final QueryRef<OrgIn> ORG_PINS = QueryRef.once("orgPins", OrgIn.CODEC,
      in -> select(PINS).where(eq("org", in.orgId())).orderBy(asc("id")));
  /** Cards of an org: topic {@code board.<org>}. */
  static final ChannelRef BOARD = ChannelRef.of("board", "orgId").catchUp(BOARD_CARDS);
  /** Notes of an org: topic {@code notebook.<org>}, over a table without REPLICA IDENTITY FULL. */
  static final ChannelRef NOTEBOOK = ChannelRef.of("notebook", "orgId").catchUp(ORG_NOTES);
  /** Pins of an org: topic {@code pins.<org>}, a table the tests truncate. */
  static final ChannelRef PINBOARD = ChannelRef.of("pins", "orgId").catchUp(ORG_PINS);
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(BOARD_CARDS).on(CARDS_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(ORG_NOTES).on(NOTES_ENTITY).policy(Policy.authenticated()))
      .channel(Channel.of(BOARD).records(CARDS_ENTITY, "org").policy(Policy.memberOfParam("orgId")))
      .channel(Channel.of(NOTEBOOK).records(NOTES_ENTITY, "org").policy(Policy.memberOfParam("orgId")))
      .query(Query.of(ORG_PINS).on(PINS_ENTITY).policy(Policy.authenticated()))
      .channel(Channel.of(PINBOARD).records(PINS_ENTITY, "org").policy(Policy.memberOfParam("orgId")))
      .build();

  TestDatabase db;
  LiveFixtureAccess fixture;
  LossyTransport lossy;
  SyncNode node;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute(CARDS_TABLE + """
        CREATE TABLE rc_notes (id int4 PRIMARY KEY, org text NOT NULL, body text NOT NULL);
        CREATE TABLE rc_pins (id int4 PRIMARY KEY, org text NOT NULL);
        ALTER TABLE rc_pins REPLICA IDENTITY FULL;
        """);
    fixture = LiveFixtureAccess.start(db, "records", List.of(CARDS_ENTITY, NOTES_ENTITY, PINS_ENTITY));
    lossy = new LossyTransport(fixture.bus(), "cards");
    node = SyncNode.builder().declarations(DECLARATIONS).transport(lossy).dataSource(fixture.pool())
        .authenticator(ChannelFixture.IDENTITIES).channelTicker(new ManualTicker()).nodeId("records-node")
        .listen("127.0.0.1", 0).socketSendBuffer(8192)
        .limits(new SocketLimits(256 * 1024, 32 * 1024, 32, Duration.ofSeconds(120), Duration.ofSeconds(60)))
        .build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
  }

  ProtocolClient<JsonObject> connect(String token) {
    return Sockets.open(node.port(), Map.of("Authorization", "Bearer " + token));
  }

  /** The position a frame's {@code lsn} spells. */
  static Position lsnOf(JsonObject frame) {
    return Position.parse(str(frame, "lsn"));
  }

  /** Commits {@code sql} in one transaction and waits until the node has queued every frame it caused. */
  Position commit(String sql) throws Exception {
    Position lsn = fixture.commit(sql);
    LiveFixtureAccess.await("the node settles through " + lsn, () -> node.settledThrough(lsn));
    return lsn;
  }

  /** Joins {@code topic} with {@code cursor} (a JSON object, or null) and returns what answered it. */
  static List<JsonObject> joined(ProtocolClient<JsonObject> c, String topic, String cursor)
      throws InterruptedException {
    c.send(cursor == null ? join(topic, null)
        : "{\"t\":\"join\",\"topic\":\"" + topic + "\",\"cursor\":" + cursor + "}");
    return until(c);
  }

  static String cursor(String epoch, long seq) {
    return "{\"epoch\":\"" + epoch + "\",\"seq\":" + seq + "}";
  }

  static long seq(JsonObject frame) {
    return ((JsonNumber) frame.get("seq")).longValueExact();
  }

  static List<String> kinds(List<JsonObject> frames) {
    return frames.stream().map(SyncNodeTest::t).toList();
  }

  static JsonArray ops(JsonObject frame) {
    return (JsonArray) frame.get("ops");
  }

  /** {@code put <key> <title or body>} or {@code del <key>}, for each op of a records frame. */
  static List<String> steps(JsonObject frame) {
    List<String> out = new ArrayList<>();
    for (JsonValue v : ops(frame).elements()) {
      JsonObject op = (JsonObject) v;
      String key = str(op, "key");
      if (str(op, "op").equals("del")) {
        out.add("del " + key);
      } else {
        JsonObject row = (JsonObject) op.get("row");
        JsonValue text = row.get("title") != null ? row.get("title") : row.get("body");
        out.add("put " + key + " " + ((JsonString) text).value() + " @" + str(row, "org")
            + (op.get("after") == null ? "" : " after"));
      }
    }
    return out;
  }

  /** {@code GET /v1/query/{query}} with {@code {"orgId": org}} as {@code token}. */
  JsonObject catchUp(String query, String org, String token) throws Exception {
    String input = URLEncoder.encode("{\"orgId\":\"" + org + "\"}", StandardCharsets.UTF_8);
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port()
        + "/v1/query/" + query + "?input=" + input)).header("Authorization", "Bearer " + token)
        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return (JsonObject) Json.parse(r.body());
  }

  /**
   * What a client holds after a gap: the catch-up read, then each held frame whose LSN is at or above the read's
   * (older ones the read already saw), op by op: key to title.
   */
  static Map<String, String> replica(JsonObject read, List<JsonObject> held) {
    Map<String, String> rows = new TreeMap<>();
    for (JsonValue v : ((JsonArray) read.get("records")).elements()) {
      JsonObject record = (JsonObject) v;
      rows.put(str(record, "key"), str((JsonObject) record.get("row"), "title"));
    }
    String readLsn = str(read, "lsn");
    for (JsonObject frame : held) {
      if (str(frame, "lsn").compareTo(readLsn) >= 0) {
        apply(rows, frame);
      }
    }
    return rows;
  }

  /** Applies the ops of {@code frame} (a {@code records} or {@code patch} frame) to {@code rows}: key to title. */
  static void apply(Map<String, String> rows, JsonObject frame) {
    for (JsonValue v : ops(frame).elements()) {
      JsonObject op = (JsonObject) v;
      if (str(op, "op").equals("del")) {
        rows.remove(str(op, "key"));
      } else {
        rows.put(str(op, "key"), str((JsonObject) op.get("row"), "title"));
      }
    }
  }

  /** The cards of {@code org} in the database: key to title. */
  Map<String, String> database(String org) throws Exception {
    return cards(db, org);
  }

  /** The cards of {@code org} in {@code db}: key to title (also {@link RecordsChannelClientTest}'s). */
  static Map<String, String> cards(TestDatabase db, String org) throws Exception {
    return cards(db.jdbcUrl(), org);
  }

  /** The cards of {@code org} in the database at {@code jdbcUrl} (as its superuser): key to title. */
  static Map<String, String> cards(String jdbcUrl, String org) throws Exception {
    Map<String, String> rows = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
        PreparedStatement s = c.prepareStatement("SELECT id, title FROM cards WHERE org = ?")) {
      s.setString(1, org);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          rows.put(Long.toString(r.getLong(1)), r.getString(2));
        }
      }
    }
    return rows;
  }

  @Test
  void insertsUpdatesAndDeletesReachTheirTopicsMembersAsNumberedRecordsFramesWithTheirLsnAndWrite()
      throws Exception {
    ProtocolClient<JsonObject> ada = connect("ada@t1");
    ProtocolClient<JsonObject> bob = connect("bob@t1");
    ProtocolClient<JsonObject> eve = connect("eve@t1b");
    ProtocolClient<JsonObject> cy = connect("cy@t1");
    List<JsonObject> adaJoin = joined(ada, "board.t1", null);
    joined(bob, "board.t1", null);
    List<JsonObject> eveJoin = joined(eve, "board.t1b", null);
    String epoch = str(adaJoin.get(1), "epoch");
    String digest = "0123456789abcdef0123456789abcdef";
    Position m1 = commit("SELECT pg_logical_emit_message(true, 'runnel.write', '" + digest + "');"
        + "INSERT INTO cards VALUES (101, 't1', 'one'), (201, 't1b', 'other org');");
    Position m2 = commit("UPDATE cards SET title = 'uno' WHERE id = 101");
    Position m3 = commit("DELETE FROM cards WHERE id = 101");
    List<JsonObject> atAda = until(ada);
    List<JsonObject> atBob = until(bob);
    List<JsonObject> atEve = until(eve);
    List<JsonObject> atCy = until(cy);
    assertAll(
        () -> assertEquals(List.of("presence", "gap"), kinds(adaJoin),
            "a join without a cursor: the roster, then gap (catch up)"),
        () -> assertEquals("board.t1", str(adaJoin.get(1), "topic")),
        () -> assertTrue(epoch.matches("[0-9a-f]{16}"), epoch),
        () -> assertEquals(List.of("records", "records", "records"), kinds(atAda)),
        () -> assertEquals(List.of(1L, 2L, 3L), atAda.stream().map(RecordsChannelsTest::seq).toList()),
        () -> assertTrue(atAda.stream().allMatch(f -> str(f, "epoch").equals(epoch) && str(f, "topic")
            .equals("board.t1")), atAda.toString()),
        () -> assertEquals(List.of("put 101 one @t1"), steps(atAda.get(0)), "an insert is a put without after"),
        () -> assertEquals(List.of("put 101 uno @t1"), steps(atAda.get(1))),
        () -> assertEquals(List.of("del 101"), steps(atAda.get(2))),
        () -> assertEquals("{\"op\":\"put\",\"type\":\"cards\",\"key\":\"101\",\"row\":{\"id\":\"101\",\"org\":\"t1\","
            + "\"title\":\"one\"}}", ops(atAda.get(0)).get(0).toString(), "the whole row, int8 as a string"),
        () -> assertEquals("[\"" + digest + "\"]", atAda.get(0).get("writes").toString(),
            "the transaction's write digest"),
        () -> assertEquals("[]", atAda.get(1).get("writes").toString()),
        () -> assertTrue(lsnOf(atAda.get(0)).compareTo(m1) < 0, "the insert commits before its marker"),
        () -> assertTrue(lsnOf(atAda.get(1)).compareTo(m1) > 0 && lsnOf(atAda.get(1)).compareTo(m2) < 0),
        () -> assertTrue(lsnOf(atAda.get(2)).compareTo(m2) > 0 && lsnOf(atAda.get(2)).compareTo(m3) < 0),
        () -> assertTrue(str(atAda.get(0), "lsn").matches("[0-9a-f]{24}")),
        () -> assertEquals(atAda.toString(), atBob.toString(), "every member gets the same frames"),
        () -> assertEquals(List.of("records"), kinds(atEve), "the other org's topic gets its own row only"),
        () -> assertEquals(List.of("put 201 other org @t1b"), steps(atEve.get(0))),
        () -> assertEquals(1, seq(atEve.get(0)), "its own numbering"),
        () -> assertNotEquals(epoch, str(eveJoin.get(1), "epoch"), "and its own epoch"),
        () -> assertEquals(List.of(), atCy, "a socket that joined nothing gets nothing"));
    for (ProtocolClient<JsonObject> c : List.of(ada, bob, eve, cy)) {
      c.close();
    }
  }

  @Test
  void anUpdateThatMovesARowDeletesItOnTheOldTopicAndPutsItOnTheNewOneUnderReplicaIdentityFull()
      throws Exception {
    ProtocolClient<JsonObject> ada = connect("ada@m1");
    ProtocolClient<JsonObject> eve = connect("eve@m2");
    joined(ada, "board.m1", null);
    joined(eve, "board.m2", null);
    commit("INSERT INTO cards VALUES (301, 'm1', 'moving')");
    List<JsonObject> inserted = until(ada);
    commit("UPDATE cards SET org = 'm2' WHERE id = 301");
    List<JsonObject> leftAtAda = until(ada);
    List<JsonObject> arrivedAtEve = until(eve);
    commit("UPDATE cards SET id = 302, title = 'renamed' WHERE id = 301");
    List<JsonObject> rekeyedAtEve = until(eve);
    List<JsonObject> rekeyedAtAda = until(ada);
    assertAll(
        () -> assertEquals(List.of("put 301 moving @m1"), steps(inserted.get(0))),
        () -> assertEquals(List.of("del 301"), steps(leftAtAda.get(0)), "the old topic: a delete"),
        () -> assertEquals(1, leftAtAda.size()),
        () -> assertEquals(List.of("put 301 moving @m2"), steps(arrivedAtEve.get(0)), "the new topic: the row"),
        () -> assertEquals(1, arrivedAtEve.size()),
        () -> assertEquals(List.of("del 301", "put 302 renamed @m2"), steps(rekeyedAtEve.get(0)),
            "a new key in the same topic: the old key goes, the new one comes"),
        () -> assertEquals(List.of(), rekeyedAtAda));
    ada.close();
    eve.close();
  }

  @Test
  void withoutReplicaIdentityFullAnUpdateGapsTheChannelsOtherTopicsAndADeleteGapsThemAll() throws Exception {
    ProtocolClient<JsonObject> ada = connect("ada@n1");
    ProtocolClient<JsonObject> eve = connect("eve@n2");
    ProtocolClient<JsonObject> board = connect("bob@n1");
    String adaEpoch = str(joined(ada, "notebook.n1", null).get(1), "epoch");
    String eveEpoch = str(joined(eve, "notebook.n2", null).get(1), "epoch");
    joined(board, "board.n1", null);
    commit("INSERT INTO rc_notes VALUES (1, 'n1', 'first')");
    List<JsonObject> inserted = until(ada);
    List<JsonObject> insertElsewhere = until(eve);
    commit("UPDATE rc_notes SET body = 'edited' WHERE id = 1");
    List<JsonObject> updated = until(ada);
    List<JsonObject> updateElsewhere = until(eve);
    commit("DELETE FROM rc_notes WHERE id = 1");
    List<JsonObject> deleted = until(ada);
    List<JsonObject> deleteElsewhere = until(eve);
    List<JsonObject> otherChannel = until(board);
    assertAll(
        () -> assertEquals(List.of("put 1 first @n1"), steps(inserted.get(0)), "an insert's topic is known"),
        () -> assertEquals(List.of(), insertElsewhere),
        () -> assertEquals(List.of("records"), kinds(updated), "the update's new topic gets the row"),
        () -> assertEquals(List.of("put 1 edited @n1"), steps(updated.get(0))),
        () -> assertEquals(List.of("gap"), kinds(updateElsewhere),
            "the old row's topic is unknown: every other topic of the channel gaps"),
        () -> assertNotEquals(eveEpoch, str(updateElsewhere.get(0), "epoch"), "with a new epoch"),
        () -> assertEquals(List.of("gap"), kinds(deleted), "a delete's topic is unknown: every topic gaps"),
        () -> assertNotEquals(adaEpoch, str(deleted.get(0), "epoch")),
        () -> assertEquals(List.of("gap"), kinds(deleteElsewhere)),
        () -> assertEquals(List.of(), otherChannel, "another channel's topics are not touched"));
    ada.close();
    eve.close();
    board.close();
  }

  /**
   * A 1,000-row transaction is one frame of about 94 KB, over this node's 32 KiB outbound bound; the {@code hello}
   * that follows it must still be answered while that frame is being written (it was dropped under CPU load once).
   */
  @Test
  void aThousandRowsForOneTopicAreOneFrameAfterAFloodsGap() throws Exception {
    ProtocolClient<JsonObject> bulk = connect("bob@b1");
    joined(bulk, "board.b1", null);
    commit("INSERT INTO cards SELECT 30000 + n, 'b1', 'bulk ' || n FROM generate_series(1, 1001) n");
    List<JsonObject> flooded = until(bulk);
    catchUp("boardCards", "b1", "bob@b1");
    commit("INSERT INTO cards SELECT 40000 + n, 'b1', 'small ' || n FROM generate_series(1, 1000) n");
    List<JsonObject> oneFrame = until(bulk);
    assertAll(
        () -> assertEquals(List.of("gap"), kinds(flooded)),
        () -> assertEquals(List.of("records"), kinds(oneFrame), "1,000 rows are one frame"),
        () -> assertEquals(1000, ops(oneFrame.get(0)).size()),
        () -> assertEquals(1, seq(oneFrame.get(0)), "the first of the new epoch"));
    bulk.close();
  }

  @Test
  void aTruncateGapsEveryTopicOfItsChannelAndABulkTransactionGapsTheTopicsItWouldFlood() throws Exception {
    ProtocolClient<JsonObject> ada = connect("ada@p1");
    ProtocolClient<JsonObject> eve = connect("eve@p2");
    ProtocolClient<JsonObject> bulk = connect("bob@b1");
    String adaEpoch = str(joined(ada, "pins.p1", null).get(1), "epoch");
    joined(eve, "pins.p2", null);
    joined(ada, "board.p1", null);
    String bulkEpoch = str(joined(bulk, "board.b1", null).get(1), "epoch");
    commit("INSERT INTO rc_pins VALUES (1, 'p1'), (2, 'p2')");
    List<JsonObject> pinned = until(ada);
    until(eve);
    commit("TRUNCATE rc_pins");
    List<JsonObject> truncatedAtAda = until(ada);
    List<JsonObject> truncatedAtEve = until(eve);
    commit("INSERT INTO cards SELECT 10000 + n, 'b1', 'bulk ' || n FROM generate_series(1, 1001) n");
    List<JsonObject> flooded = until(bulk);
    JsonObject read = catchUp("boardCards", "b1", "bob@b1");
    assertAll(
        () -> assertEquals(List.of("records"), kinds(pinned)),
        () -> assertEquals(List.of("gap"), kinds(truncatedAtAda), "a truncate gaps every topic of the channel"),
        () -> assertEquals("pins.p1", str(truncatedAtAda.get(0), "topic"), "and not the other channel's topics"),
        () -> assertNotEquals(adaEpoch, str(truncatedAtAda.get(0), "epoch")),
        () -> assertEquals(List.of("gap"), kinds(truncatedAtEve)),
        () -> assertEquals(List.of("gap"), kinds(flooded), "1,001 rows for one topic: gap, not a frame"),
        () -> assertNotEquals(bulkEpoch, str(flooded.get(0), "epoch")),
        () -> assertEquals(1001, ((JsonArray) read.get("records")).size(), "the catch-up read has them"));
    for (ProtocolClient<JsonObject> c : List.of(ada, eve, bulk)) {
      c.close();
    }
  }

  @Test
  void aJoinWithACursorOfTheCurrentEpochGetsWhatItMissedAndAnyOtherCursorGetsGap() throws Exception {
    ProtocolClient<JsonObject> bob = connect("bob@r1");
    joined(bob, "board.r1", null);
    ProtocolClient<JsonObject> ada = connect("ada@r1");
    String epoch = str(joined(ada, "board.r1", null).get(1), "epoch");
    commit("INSERT INTO cards VALUES (401, 'r1', 'seen')");
    JsonObject seen = until(ada).get(0);
    until(bob);
    ada.close();
    commit("INSERT INTO cards VALUES (402, 'r1', 'missed')");
    commit("UPDATE cards SET title = 'seen, then changed' WHERE id = 401");
    List<JsonObject> atBob = until(bob);
    ProtocolClient<JsonObject> back = connect("ada@r1");
    List<JsonObject> resumed = joined(back, "board.r1", cursor(epoch, seq(seen)));
    commit("INSERT INTO cards VALUES (403, 'r1', 'live')");
    List<JsonObject> live = until(back);
    List<JsonObject> liveAtBob = until(bob);
    List<JsonObject> beat = joined(back, "board.r1", cursor("0000000000000000", 0));
    ProtocolClient<JsonObject> stale = connect("ada@r1");
    List<JsonObject> staleJoin = joined(stale, "board.r1", cursor("0123456789abcdef", 1));
    ProtocolClient<JsonObject> future = connect("ada@r1");
    List<JsonObject> futureJoin = joined(future, "board.r1", cursor(epoch, 99));
    ProtocolClient<JsonObject> current = connect("ada@r1");
    List<JsonObject> currentJoin = joined(current, "board.r1", cursor(epoch, 4));
    assertAll(
        () -> assertEquals(1, seq(seen)),
        () -> assertEquals(List.of("presence", "records", "records"), kinds(resumed),
            "the roster, then the two frames missed"),
        () -> assertEquals(atBob.stream().map(JsonObject::toString).toList(),
            resumed.subList(1, 3).stream().map(JsonObject::toString).toList(), "the very frames the others got"),
        () -> assertEquals(List.of(2L, 3L), List.of(seq(resumed.get(1)), seq(resumed.get(2)))),
        () -> assertEquals(List.of(4L), live.stream().map(RecordsChannelsTest::seq).toList(), "then live"),
        () -> assertEquals(live.toString(), liveAtBob.toString()),
        () -> assertEquals(List.of(), beat, "a repeated join is a heartbeat: no cursor check, no answer"),
        () -> assertEquals(List.of("presence", "gap"), kinds(staleJoin), "another epoch: gap"),
        () -> assertEquals(epoch, str(staleJoin.get(1), "epoch"), "naming the current epoch"),
        () -> assertEquals(List.of("presence", "gap"), kinds(futureJoin), "a seq never sent: gap"),
        () -> assertEquals(List.of("presence"), kinds(currentJoin), "a cursor that missed nothing: only the roster"));
    for (ProtocolClient<JsonObject> c : List.of(bob, back, stale, future, current)) {
      c.close();
    }
  }

  @Test
  void aBusGapSendsGapToEveryMemberAndTheCatchUpReadPlusTheLaterFramesEqualsTheDatabase() throws Exception {
    ProtocolClient<JsonObject> ada = connect("ada@g1");
    ProtocolClient<JsonObject> eve = connect("eve@g2");
    String epoch = str(joined(ada, "board.g1", null).get(1), "epoch");
    joined(eve, "board.g2", null);
    commit("INSERT INTO cards VALUES (501, 'g1', 'before'), (502, 'g1', 'doomed')");
    until(ada);
    long gapsBefore = node.stats().channels().gaps();
    lossy.loseNext = true;
    commit("INSERT INTO cards VALUES (503, 'g1', 'lost on the bus'), (504, 'g1', 'after the hole');"
        + "UPDATE cards SET title = 'changed in the hole' WHERE id = 501");
    List<JsonObject> afterHole = until(ada);
    List<JsonObject> atEve = until(eve);
    JsonObject gap = afterHole.get(0);
    List<JsonObject> held = new ArrayList<>(afterHole.subList(1, afterHole.size()));
    JsonObject read = catchUp("boardCards", "g1", "ada@g1");
    commit("DELETE FROM cards WHERE id = 502; UPDATE cards SET title = 'after the read' WHERE id = 504");
    commit("INSERT INTO cards VALUES (505, 'g1', 'later')");
    held.addAll(until(ada));
    assertAll(
        () -> assertEquals("gap", t(gap), "the hole is told first: " + afterHole),
        () -> assertNotEquals(epoch, str(gap, "epoch"), "a bus gap starts a new epoch"),
        () -> assertEquals(List.of("gap"), kinds(atEve), "every member of every records topic hears it"),
        () -> assertTrue(node.stats().channels().gaps() >= gapsBefore + 2),
        () -> assertTrue(held.stream().allMatch(f -> t(f).equals("records") && str(f, "epoch")
            .equals(str(gap, "epoch"))), held.toString()),
        () -> assertEquals(database("g1"), replica(read, held),
            "the catch-up read plus the frames after it equal the database"),
        () -> assertEquals(5 - 1, database("g1").size()));
    ada.close();
    eve.close();
  }

  @Test
  void recordsFramesLostToASlowSocketAreFollowedByAGapOnceItDrainsAndTheCatchUpRepairsThem() throws Exception {
    String title = "x".repeat(2048);
    try (RawSocket slow = RawSocket.open(node.port(), "ada@s1", 4096)) {
      slow.writeAll(List.of(join("board.s1", null)));
      JsonObject roster = (JsonObject) Json.parse(slow.read());
      JsonObject first = (JsonObject) Json.parse(slow.read());
      long dropsBefore = node.stats().channels().framesDropped();
      // It stops reading: 80 transactions of a 2 KiB row each pass its queue (32 KiB) and both socket buffers.
      try (Connection c = db.connect(); Statement s = c.createStatement()) {
        for (int i = 1; i <= 80; i++) {
          s.execute("INSERT INTO cards VALUES (" + (600 + i) + ", 's1', '" + i + title + "')");
        }
      }
      commit("UPDATE cards SET title = 'last of the burst' WHERE id = 680");
      long dropped = node.stats().channels().framesDropped() - dropsBefore;
      List<JsonObject> received = new ArrayList<>();
      JsonObject frame;
      do {
        frame = (JsonObject) Json.parse(slow.read());
        received.add(frame);
      } while (!t(frame).equals("gap"));
      JsonObject gap = frame;
      JsonObject read = catchUp("boardCards", "s1", "ada@s1");
      commit("UPDATE cards SET title = 'after the gap' WHERE id = 601; DELETE FROM cards WHERE id = 602");
      slow.writeAll(List.of("{\"t\":\"hello\",\"v\":1}"));
      List<JsonObject> held = new ArrayList<>();
      for (frame = (JsonObject) Json.parse(slow.read()); !t(frame).equals("hello");
          frame = (JsonObject) Json.parse(slow.read())) {
        held.add(frame);
      }
      List<JsonObject> records = received.subList(0, received.size() - 1);
      List<Long> seqs = records.stream().map(RecordsChannelsTest::seq).toList();
      assertAll(
          () -> assertEquals("presence", t(roster)),
          () -> assertEquals("gap", t(first)),
          () -> assertTrue(dropped >= 1, "records frames were dropped for the slow socket"),
          () -> assertTrue(!records.isEmpty() && records.size() < 81, "some frames came, not all: " + seqs),
          () -> assertEquals(LongStream.rangeClosed(1, records.size()).boxed().toList(), seqs,
              "the frames that came are in order, with no hole before the gap"),
          () -> assertEquals(str(first, "epoch"), str(gap, "epoch"), "a socket's own loss keeps the epoch"),
          () -> assertEquals(List.of("records"), kinds(held), "frames after the gap flow again"),
          () -> assertEquals(82, seq(held.get(0)), "numbered after every frame of the topic, sent or lost"),
          () -> assertEquals(database("s1"), replica(read, held),
              "the catch-up read plus the frames after it equal the database"),
          () -> assertEquals(79, database("s1").size()));
    }
  }
}
