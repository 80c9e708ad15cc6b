package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** The board's Flyway migrations on a real PostgreSQL: the schema and the fixed seed, applied once. */
@FreshDatabase
class BoardSchemaTest {

  @Test
  void theMigrationsCreateTheSchemaAndTheFixedSeedOnceOnly(TestDatabase db) throws Exception {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(db.jdbcUrl());
    ds.setUser("postgres");
    ds.setPassword("postgres");
    int first = BoardApp.SERVER.migrate(ds);
    int second = BoardApp.SERVER.migrate(ds);
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      assertAll(
          () -> assertEquals(2, first, "schema, then seed"),
          () -> assertEquals(0, second, "a second run applies nothing"),
          () -> assertEquals("acme,globex", one(s, "SELECT string_agg(id, ',' ORDER BY id) FROM orgs")),
          () -> assertEquals("ada:acme,alan:acme,grace:globex",
              one(s, "SELECT string_agg(id || ':' || org_id, ',' ORDER BY id) FROM users")),
          () -> assertEquals("20", one(s, "SELECT count(*) FROM posts")),
          () -> assertEquals("14", one(s, "SELECT count(*) FROM posts WHERE org_id = 'acme'")),
          () -> assertEquals("0", one(s, "SELECT count(*) FROM likes")),
          () -> assertEquals("Seed post 1", one(s,
              "SELECT title FROM posts WHERE id = md5('runnel-seed-post-1')::uuid"), "ids are fixed"));
    }
  }

  private static String one(Statement s, String sql) throws Exception {
    try (ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }
}
