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
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.util.List;
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
      ProtocolClient<JsonObject> ada = ProtocolClient.to(node.port()).bearer(SyncNodeTest.token("ada", "acme"))
          .open(Sockets::json);
      ada.send("{\"t\":\"hello\",\"v\":1}");
      ada.next();
      int open = node.sockets();

      node.stop();
      int code = ada.closedByNode().get(10, TimeUnit.SECONDS);
      assertAll(
          () -> assertEquals(1, open, "the socket was open on the node"),
          () -> assertEquals(1001, code, "closed as going away"),
          () -> assertEquals(0, node.sockets(), "the node holds no socket after its stop"));
    }
  }
}
