package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A node that stops closes its open sockets (1001), so their clients reconnect instead of waiting out a heartbeat. */
@FreshDatabase
class NodeStopTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));

  @Test
  void stoppingTheNodeClosesEveryOpenSocketWithGoingAway(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text)");
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "stop", List.of(NOTES_ENTITY))) {
      SyncNode node = SyncNode.builder()
          .declarations(Declarations.builder().query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated()))
              .build())
          .transport(fixture.bus()).dataSource(fixture.pool())
          .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0).build();
      node.start();
      CompletableFuture<String> hello = new CompletableFuture<>();
      CompletableFuture<Integer> closed = new CompletableFuture<>();
      WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
          .header("Authorization", "Bearer " + SyncNodeTest.token("ada", "acme"))
          .buildAsync(URI.create("ws://127.0.0.1:" + node.port() + "/v1/sync"), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
              hello.complete(data.toString());
              w.request(1);
              return null;
            }

            @Override
            public CompletionStage<?> onClose(WebSocket w, int statusCode, String reason) {
              closed.complete(statusCode);
              return null;
            }
          }).join();
      ws.sendText("{\"t\":\"hello\",\"v\":1}", true).join();
      hello.get(10, TimeUnit.SECONDS);
      int open = node.sockets();

      node.stop();
      int code = closed.get(10, TimeUnit.SECONDS);
      assertAll(
          () -> assertEquals(1, open, "the socket was open on the node"),
          () -> assertEquals(1001, code, "closed as going away"),
          () -> assertEquals(0, node.sockets(), "the node holds no socket after its stop"));
    }
  }
}
