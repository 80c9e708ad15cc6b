package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The replicator refuses bad configuration and bad envelopes with the exception type and code of the concern. */
class RefusalCodesTest {

  @Test
  void badConfigurationIsAConfigInvalidExceptionNamingTheVariable() {
    ConfigInvalidException url = assertThrows(ConfigInvalidException.class,
        () -> DatabaseUrl.parse("DATABASE_URL", "mysql://localhost/db"));
    ConfigInvalidException slot = assertThrows(ConfigInvalidException.class,
        () -> ReplicatorConfig.fromEnvironment(Map.of("REPLICATION_SLOT", "Bad-Slot")));
    ConfigInvalidException alone = assertThrows(ConfigInvalidException.class,
        () -> ReplicatorConfig.fromEnvironment(Map.of("REPLICATION_URL", "postgres://h/db")));
    ConfigInvalidException elsewhere = assertThrows(ConfigInvalidException.class,
        () -> ReplicatorConfig.fromEnvironment(
            Map.of("DATABASE_URL", "postgres://h/a", "REPLICATION_URL", "postgres://h/b")));
    assertAll(
        () -> assertEquals(ErrorCode.X_CONFIG_INVALID, url.code()),
        () -> assertTrue(url.cause().contains("DATABASE_URL"), url.cause()),
        () -> assertTrue(slot.cause().contains("REPLICATION_SLOT"), slot.cause()),
        () -> assertTrue(alone.cause().contains("DATABASE_URL"), alone.cause()),
        () -> assertTrue(elsewhere.cause().contains("REPLICATION_URL"), elsewhere.cause()));
  }

  @Test
  void aMalformedEnvelopeIsAnInputErrorOnTheWholeInput() {
    InputInvalidException notJson = assertThrows(InputInvalidException.class,
        () -> ChangeEnvelope.decode("{".getBytes(StandardCharsets.UTF_8), name -> null));
    InputInvalidException otherVersion = assertThrows(InputInvalidException.class,
        () -> ChangeEnvelope.decode("{\"v\":99}".getBytes(StandardCharsets.UTF_8), name -> null));
    InputInvalidException missing = assertThrows(InputInvalidException.class,
        () -> ChangeEnvelope.decode("{\"v\":1}".getBytes(StandardCharsets.UTF_8), name -> null));
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, notJson.code()),
        () -> assertEquals("", notJson.path()),
        () -> assertTrue(notJson.cause().contains("bus envelope"), notJson.cause()),
        () -> assertTrue(otherVersion.cause().contains("version"), otherVersion.cause()),
        () -> assertEquals("", missing.path()));
  }
}
