package io.runnel.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.testing.ApiSurface;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The client's API packages ({@code io.runnel.client} and the concept packages without {@code internal}) name no
 * internal type in a public or protected signature ({@code docs/reading-the-code.md}, "Internal packages").
 */
class ApiSurfaceTest {

  @Test
  void theApiPackagesExposeNoInternalType() {
    assertEquals(List.of(), ApiSurface.leaksOfModule("client-teavm", 30), "an API signature names an internal type");
  }
}
