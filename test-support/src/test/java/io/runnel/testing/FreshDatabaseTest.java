package io.runnel.testing;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

@FreshDatabase
class FreshDatabaseTest {

  @Test
  void theServerIsPostgres18WithLogicalWalAndSynchronousCommit(TestDatabase db) throws SQLException {
    try (Connection c = db.connect()) {
      assertAll(
          () -> assertTrue(setting(c, "server_version_num").startsWith("18"), "PostgreSQL 18 from the BOM"),
          () -> assertEquals("logical", setting(c, "wal_level")),
          () -> assertEquals("on", setting(c, "synchronous_commit")),
          () -> assertEquals(db.name(), one(c, "SELECT current_database()")));
    }
  }

  @Test
  void closingADatabaseDropsItsReplicationSlotsAndTheDatabase() throws SQLException {
    TestDatabase scratch = EmbeddedPostgresServer.shared().createDatabase("scratch");
    scratch.execute("CREATE TABLE t (id int PRIMARY KEY); CREATE PUBLICATION p FOR TABLE t;");
    try (Connection c = scratch.connect()) {
      one(c, "SELECT slot_name::text FROM pg_create_logical_replication_slot('scratch_slot', 'pgoutput')");
    }
    scratch.close();
    try (Connection admin = EmbeddedPostgresServer.shared().adminConnection()) {
      assertAll(
          () -> assertEquals("0", one(admin,
              "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'scratch_slot'")),
          () -> assertEquals("0", one(admin,
              "SELECT count(*) FROM pg_database WHERE datname = '" + scratch.name() + "'")));
    }
    assertFalse(scratch.name().isEmpty());
  }

  private static String setting(Connection c, String name) throws SQLException {
    return one(c, "SELECT current_setting('" + name + "')");
  }

  private static String one(Connection c, String sql) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql); ResultSet r = s.executeQuery()) {
      r.next();
      return r.getString(1);
    }
  }
}
