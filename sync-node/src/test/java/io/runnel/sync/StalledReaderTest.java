package io.runnel.sync;

import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A send path no client can stall: one socket that never reads (a raw TCP client with a tiny receive buffer),
 * beside 500 that do, all on one window. The others keep receiving every patch; the stalled one has frames dropped
 * and is cut by the node.
 */
@FreshDatabase
class StalledReaderTest {

  static final int OTHERS = 500;
  static final EntityRef ITEMS = EntityRef.of("feed_items").key("id")
      .columns(c -> c.int4("id").text("org").text("body"));
  static final Entity ITEMS_ENTITY = Entity.of(ITEMS).table("public.feed_items").tenant("org");
  static final QueryRef<NoInput> FEED = QueryRef.live("feed", NoInput.CODEC,
      in -> select(ITEMS).orderBy(desc("id")).limit(2));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(FEED).on(ITEMS_ENTITY).policy(Policy.authenticated())).build();

  /** A reading socket that counts the patches it receives. */
  static final class Counting {
    final AtomicInteger patches = new AtomicInteger();
    final ProtocolClient<String> socket;

    Counting(int port, String token) {
      socket = ProtocolClient.to(port).bearer(token).open(text -> text, r -> {
        if (r.text().startsWith("{\"t\":\"patch\"")) {
          patches.incrementAndGet();
        }
      });
    }
  }

  private static void await(String what, BooleanSupplier condition, int seconds) throws InterruptedException {
    Await.until(what, Duration.ofSeconds(seconds), condition::getAsBoolean);
  }

  /** Upgrades, subscribes, and never reads again. */
  private static Socket stalledClient(int port, String token) throws Exception {
    Socket s = new Socket();
    s.setReceiveBufferSize(4096);
    s.connect(new InetSocketAddress("127.0.0.1", port));
    OutputStream out = s.getOutputStream();
    out.write(("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      head.append((char) in.read());
    }
    byte[] payload = "{\"t\":\"sub\",\"sid\":\"f\",\"q\":\"feed\",\"in\":{}}".getBytes(StandardCharsets.UTF_8);
    byte[] frame = new byte[2 + 4 + payload.length];
    frame[0] = (byte) 0x81;
    frame[1] = (byte) (0x80 | payload.length);
    System.arraycopy(payload, 0, frame, 6, payload.length);
    out.write(frame);
    out.flush();
    return s;
  }

  @Test
  void oneStalledSocketCostsTheOthersNothingAndIsDroppedAndCut(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE feed_items (id int PRIMARY KEY, org text, body text)");
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "stalled", List.of(ITEMS_ENTITY));
        SyncNode node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus())
            .dataSource(fixture.pool()).authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build())
            .listen("127.0.0.1", 0).socketSendBuffer(8192)
            .limits(new SocketLimits(256 * 1024, 16 * 1024, 32, Duration.ofSeconds(120), Duration.ofSeconds(5)))
            .build()) {
      node.start();
      String token = SyncNodeTest.token("reader", "acme");
      Socket stalled = stalledClient(node.port(), token);
      List<Counting> others = new ArrayList<>();
      for (int i = 0; i < OTHERS; i++) {
        // One reader each: an actor may hold 16 sockets (AdmissionLimits).
        Counting c = new Counting(node.port(), SyncNodeTest.token("reader-" + i, "acme"));
        c.socket.send("{\"t\":\"sub\",\"sid\":\"f\",\"q\":\"feed\",\"in\":{}}");
        others.add(c);
      }
      await("every socket is open", () -> node.sockets() == OTHERS + 1, 30);
      String body = "y".repeat(1024);
      int transactions = 300;
      for (int t = 1; t <= transactions; t++) {
        fixture.commit("INSERT INTO feed_items VALUES (" + t + ", 'acme', '" + body + "')");
      }
      try {
        await("every reading socket received every patch",
            () -> others.stream().allMatch(c -> c.patches.get() == transactions), 90);
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + ": min " + others.stream().mapToInt(c -> c.patches.get()).min()
            .orElse(0) + ", max " + others.stream().mapToInt(c -> c.patches.get()).max().orElse(0) + ", dropped "
            + node.framesDropped() + ", sockets " + node.sockets() + ", " + node.stats().live(), e);
      }
      try {
        await("the stalled socket is cut", () -> node.sockets() == OTHERS, 30);
      } catch (AssertionError e) {
        String state = ": dropped " + node.framesDropped() + ", sockets " + node.sockets();
        throw new AssertionError(e.getMessage() + state, e);
      }
      assertAll(
          () -> assertTrue(node.framesDropped() > 0, "frames were dropped for the stalled socket"),
          () -> assertEquals(1, node.stats().live().windows(), "one window served them all"));
      others.forEach(c -> c.socket.close());
      stalled.close();
    }
  }
}
