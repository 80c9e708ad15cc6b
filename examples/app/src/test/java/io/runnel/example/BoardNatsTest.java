package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.bus.Subjects;
import io.runnel.server.AllRole;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one process on NATS ({@code NATS_URL}): a write travels WAL → replicator → a real {@code nats-server} → the
 * sync node → the socket; and a server that does not answer stops the boot with a refusal naming the URL and the
 * fix, before anything else starts.
 */
@FreshDatabase
class BoardNatsTest {

  @Test
  void withNatsUrlAWriteReachesALiveFeedThroughTheNatsServer(TestDatabase db, @TempDir Path dir) throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport watcher = NatsTransport.connect(NatsConfig.parse("test", nats.url()))) {
      CountDownLatch onNats = new CountDownLatch(1);
      watcher.subscribe(Subjects.changes("public", "posts"), m -> onNats.countDown());
      try (AllRole app = BoardHttp.start(BoardHttp.env(db, "RUNNEL_DEV", "true", "NATS_URL", nats.url()))) {
        BoardHttp http = new BoardHttp(app.port());
        String ada = http.token("ada");
        String id = UUID.randomUUID().toString();
        List<BoardFrame> frames;
        try (ProtocolClient<BoardFrame> socket = BoardFrame.socket(app.port(), ada)) {
          socket.send("{\"t\":\"hello\",\"v\":1}");
          socket.send(BoardAppTest.sub("feed", "liveFeed", "{\"orgId\":\"acme\"}"));
          socket.until(f -> f.t().equals("snapshot") && "feed".equals(f.sid()));
          BoardHttp.Answer created = http.mutate(ada, "createPost",
              "{\"id\":\"" + id + "\",\"title\":\"Over NATS\",\"body\":\"hello\"}");
          assertEquals(200, created.status(), String.valueOf(created.body()));
          frames = socket.until(f -> f.t().equals("patch") && "feed".equals(f.sid()) && f.text().contains(id));
        }
        BoardFrame patch = frames.get(frames.size() - 1);
        assertAll(
            () -> assertTrue(patch.text().contains("Over NATS"), patch.text()),
            () -> assertTrue(onNats.await(30, TimeUnit.SECONDS), "the change went through the NATS server"));
      }
    }
  }

  @Test
  void aNatsServerThatDoesNotAnswerStopsTheBootNamingTheUrlAndTheFix(TestDatabase db) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "nats://127.0.0.1:" + port;
    String slots = "SELECT count(*) FROM pg_replication_slots WHERE database = current_database()";
    String tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'";
    int slotsBefore = count(db, slots);
    int tablesBefore = count(db, tables);
    RunnelException e = assertThrows(RunnelException.class,
        () -> BoardHttp.start(BoardHttp.env(db, "RUNNEL_DEV", "true", "NATS_URL", url)).close());
    assertAll(
        () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, e.code()),
        () -> assertTrue(e.cause().contains(url), e.cause()),
        () -> assertTrue(e.fix().contains("NATS_URL") && e.fix().contains("nats-server"), e.fix()),
        () -> assertEquals(slotsBefore, count(db, slots), "nothing started: no replication slot made"),
        () -> assertEquals(tablesBefore, count(db, tables), "and nothing migrated"));
  }

  private static int count(TestDatabase db, String sql) throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getInt(1);
    }
  }
}
