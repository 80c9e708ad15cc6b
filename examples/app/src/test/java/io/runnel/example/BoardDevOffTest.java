package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AllRole;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/** Outside development mode the development sign-in refuses everyone, seeded users included. */
@FreshDatabase
class BoardDevOffTest {

  @Test
  void devSignInIsRefusedWithACodeWhenDevelopmentModeIsOff(TestDatabase db) throws Exception {
    try (AllRole app = BoardHttp.start(BoardHttp.env(db, "RUNNEL_JWT_SECRET", "x".repeat(32)))) {
      BoardHttp.Answer a = new BoardHttp(app.port()).signIn("{\"user\":\"ada\"}");
      assertAll(
          () -> assertEquals(404, a.status()),
          () -> assertEquals("X_DEV_SIGN_IN_OFF", a.code()),
          () -> assertTrue(a.raw().headers().firstValue("set-cookie").isEmpty(), "no cookie"));
    }
  }
}
