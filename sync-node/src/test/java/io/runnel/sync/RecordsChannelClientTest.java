package io.runnel.sync;

import static io.runnel.sync.RecordsChannelsTest.BOARD;
import static io.runnel.sync.RecordsChannelsTest.BOARD_CARDS;
import static io.runnel.sync.RecordsChannelsTest.CARDS;
import static io.runnel.sync.RecordsChannelsTest.CARDS_ENTITY;
import static io.runnel.sync.RecordsChannelsTest.CARDS_TABLE;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.Refs;
import io.runnel.client.RunnelClient;
import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.channel.ChannelState;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.Subscription;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Position;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The real client ({@code RunnelClient} over {@link JvmClientPorts}) on a records channel of a real node, over a real
 * PostgreSQL's WAL: frames the node drops for a socket that stopped reading are noticed (a seq hole or the node's
 * {@code gap}), caught up by the client's own read, and the client's record store ends equal to the table. Unlike
 * {@link RecordsChannelsTest}'s stand-in replica, this is the store that keeps each record's newest version by LSN.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecordsChannelClientTest {

  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(BOARD_CARDS).on(CARDS_ENTITY).policy(Policy.authenticated()))
      .channel(Channel.of(BOARD).records(CARDS_ENTITY, "org").policy(Policy.memberOfParam("orgId")))
      .build();
  static final Refs REFS = new Refs().entity(CARDS).channel(BOARD);

  TestDatabase db;
  LiveFixtureAccess fixture;
  SyncNode node;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute(CARDS_TABLE);
    fixture = LiveFixtureAccess.start(db, "client", List.of(CARDS_ENTITY));
    node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(ChannelFixture.IDENTITIES).nodeId("client-node").listen("127.0.0.1", 0)
        .socketSendBuffer(8192)
        .limits(new SocketLimits(256 * 1024, 32 * 1024, 32, Duration.ofSeconds(120), Duration.ofSeconds(60)))
        .build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
  }

  /** Commits {@code sql} in one transaction and waits until the node has queued every frame it caused. */
  void commit(String sql) throws Exception {
    Position lsn = fixture.commit(sql);
    LiveFixtureAccess.await("the node settles through " + lsn, () -> node.settledThrough(lsn));
  }

  /** The cards of {@code org} in the database: key to title. */
  Map<String, String> database(String org) throws Exception {
    return RecordsChannelsTest.cards(db, org);
  }

  /**
   * {@code rows} with each title over 40 characters cut to its first 20 and its length, so that a failure prints
   * something readable.
   */
  static Map<String, String> shown(Map<String, String> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach((k, v) -> out.put(k, v.length() <= 40 ? v : v.substring(0, 20) + "… (" + v.length() + ")"));
    return out;
  }

  /** What the client's store shows of cards {@code keys}: key to title, a card it does not hold left out. */
  static Map<String, String> client(JvmClientPorts ports, RunnelClient client, List<String> keys) throws Exception {
    return ports.onClient(() -> {
      Map<String, String> rows = new TreeMap<>();
      for (String key : keys) {
        Subscription s = client.record(CARDS.name(), key, row -> {
          if (row != null) {
            rows.put(key, row.text("title"));
          }
        });
        s.cancel();
      }
      return rows;
    });
  }

  /** The client's title of card {@code key}, or null when it holds none. */
  static @Nullable String title(JvmClientPorts ports, RunnelClient client, String key) {
    try {
      return client(ports, client, List.of(key)).get(key);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static String name(ChannelState state) {
    return switch (state) {
      case ChannelState.Joining j -> "joining";
      case ChannelState.CatchingUp c -> "catching-up";
      case ChannelState.Live l -> "live";
      case ChannelState.Offline o -> "offline";
      case ChannelState.Failed f -> "failed " + f.code();
    };
  }

  static String last(List<String> states) {
    return states.isEmpty() ? "" : states.get(states.size() - 1);
  }

  @Test
  void framesLostToASocketThatStoppedReadingAreCaughtUpAndTheClientsRecordsEqualTheDatabase() throws Exception {
    String title = "x".repeat(2048);
    commit("INSERT INTO cards SELECT n, 'c1', 'before the join ' || n FROM generate_series(1, 5) n;"
        + "INSERT INTO cards VALUES (7, 'c2', 'another org')");
    List<String> keys = new ArrayList<>();
    for (int k : new int[] {1, 2, 3, 4, 5, 6, 7, 999}) {
      keys.add(Integer.toString(k));
    }
    for (int i = 1; i <= 100; i++) {
      keys.add(Integer.toString(100 + i));
    }
    try (JvmClientPorts ports = new JvmClientPorts(node.port(), "ada@c1", 4096)) {
      RunnelClient client = RunnelClient.builder()
          .ports(ports.sockets(), ports.http(), ports.durable(), new WireJsonPort(), ports.ids(), ports.scheduler())
          .origin(ports.origin()).refs(REFS).credentials(Credentials.cookie()).create();
      List<String> states = new CopyOnWriteArrayList<>();
      ports.onClient(() -> {
        client.connect();
        return client.channel(BOARD, Map.of("orgId", "c1"), null, new ChannelListener() {
          @Override
          public void state(ChannelState state) {
            states.add(name(state));
          }
        });
      });
      LiveFixtureAccess.await("the channel is live", () -> last(states).equals("live"));
      List<String> joined = List.copyOf(states);
      Map<String, String> caughtUp = client(ports, client, keys);
      commit("INSERT INTO cards VALUES (6, 'c1', 'while live')");
      LiveFixtureAccess.await("card 6 reaches the client", () -> "while live".equals(title(ports, client, "6")));

      long dropsBefore = node.stats().channels().framesDropped();
      ports.pause();
      // The socket stops reading: 100 transactions of a 2 KiB row each pass the kernel's buffers and the node's
      // 32 KiB outbound queue, so the node drops records frames for it.
      try (Connection c = db.connect(); Statement s = c.createStatement()) {
        for (int i = 1; i <= 100; i++) {
          s.execute("INSERT INTO cards VALUES (" + (100 + i) + ", 'c1', '" + i + title + "')");
        }
        s.execute("UPDATE cards SET title = 'changed in the burst' WHERE id = 2");
        s.execute("DELETE FROM cards WHERE id = 3");
      }
      commit("UPDATE cards SET title = 'last of the burst' WHERE id = 150");
      long dropped = node.stats().channels().framesDropped() - dropsBefore;
      int beforeResuming = states.size();
      ports.resume();
      commit("UPDATE cards SET title = 'after the burst' WHERE id = 101; DELETE FROM cards WHERE id = 102;"
          + "UPDATE cards SET title = 'moved in' , org = 'c1' WHERE id = 7");
      commit("INSERT INTO cards VALUES (999, 'c1', 'the last write')");
      LiveFixtureAccess.await("the client shows the last write and is live",
          () -> "the last write".equals(title(ports, client, "999")) && last(states).equals("live"));
      Map<String, String> database = database("c1");
      Map<String, String> held = client(ports, client, keys);
      assertAll(
          () -> assertEquals(List.of("joining", "catching-up", "live"), joined,
              "joining until the node took the join, then its gap's read"),
          () -> assertEquals(Map.of("1", "before the join 1", "2", "before the join 2", "3", "before the join 3",
              "4", "before the join 4", "5", "before the join 5"), caughtUp, "the read, and not c2's card"),
          () -> assertTrue(dropped >= 1, "records frames were dropped for the socket that stopped reading"),
          () -> assertTrue(states.subList(beforeResuming, states.size()).contains("catching-up"),
              "the client noticed the loss and caught up: " + states),
          () -> assertEquals(106, database.size(), "1-6 and 101-200 less 3 and 102, plus 7 and 999"),
          () -> assertEquals(shown(database), shown(held), "the client's records equal the database"),
          () -> assertEquals(database, held, "to the character"));
    }
  }
}
