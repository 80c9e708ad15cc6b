package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AppConfig;
import io.runnel.server.SyncRole;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code RUNNEL_ROLE=sync} never migrates: on a database the replicator role has not migrated yet it waits, and
 * when the wait runs out it stops the boot with {@code X_CONFIG_INVALID} saying which role migrates, having
 * created nothing.
 */
@FreshDatabase
class SyncRoleTest {

  static int tables(TestDatabase db) throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM information_schema.tables "
            + "WHERE table_schema IN ('public', 'runnel')")) {
      r.next();
      return r.getInt(1);
    }
  }

  @Test
  void aSyncNodeOnAnUnmigratedDatabaseRefusesAfterItsWaitNamingTheReplicatorRole(TestDatabase db, @TempDir Path dir)
      throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of())) {
      AppConfig config = BoardApp.config(BoardHttp.env(db, "RUNNEL_ROLE", "sync", "NATS_URL", nats.url(),
          "RUNNEL_JWT_SECRET", ThreeProcessesTest.SECRET), Path.of("target"));
      RunnelException e = assertThrows(RunnelException.class,
          () -> SyncRole.start(BoardApp.SERVER, config, Duration.ZERO).close());
      assertAll(
          () -> assertEquals(ErrorCode.X_CONFIG_INVALID, e.code()),
          () -> assertTrue(e.cause().contains("2 board migrations pending"), e.cause()),
          () -> assertTrue(e.fix().contains("RUNNEL_ROLE=replicator"), e.fix()),
          () -> assertEquals(0, tables(db), "nothing created: no board table, no runnel.tickets"));
    }
  }
}
