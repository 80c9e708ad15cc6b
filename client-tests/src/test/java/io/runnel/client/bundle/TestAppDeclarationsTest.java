package io.runnel.client.bundle;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.testapp.TestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.teavm.jso.JSExport;

/**
 * The test app's TypeScript declarations ({@code src/main/typescript/test-app.d.ts}, copied next to
 * {@code test-app.js} by the build): an app bundle exports what the runtime does ({@link RuntimeBundle}, whose own
 * declarations {@code client-teavm} checks), so its declarations re-export the runtime's.
 */
class TestAppDeclarationsTest {

  private static final Path SOURCE = Path.of("src", "main", "typescript");
  private static final Path SHIPPED = Path.of("target", "js");

  @Test
  void anAppBundleExportsWhatTheRuntimeDoesSoItsDeclarationsReExportThem() {
    assertAll(
        () -> assertEquals(exports(RuntimeBundle.class), exports(TestApp.class),
            "TestApp re-exports RuntimeBundle's functions, no more, no fewer"),
        () -> assertTrue(read(SOURCE.resolve("test-app.d.ts")).contains("export * from './runnel-client.js';"),
            "test-app.d.ts re-exports runnel-client.d.ts's declarations"));
  }

  @Test
  void theBuildShipsTheDeclarationsNextToTheBundle() {
    assertAll(
        () -> assertEquals(read(SOURCE.resolve("test-app.d.ts")), read(SHIPPED.resolve("test-app.d.ts")),
            "target/js/test-app.d.ts is the source's copy"),
        () -> assertTrue(Files.isRegularFile(SHIPPED.resolve("test-app.js")), "next to test-app.js"),
        () -> assertTrue(Files.isRegularFile(SHIPPED.resolve("runnel-client.d.ts")),
            "with the runtime's declarations, which test-app.d.ts re-exports"));
  }

  /** Each {@code @JSExport} static method of {@code type} and its parameter count, by name. */
  private static Map<String, Integer> exports(Class<?> type) {
    Map<String, Integer> out = new TreeMap<>();
    for (Method m : type.getDeclaredMethods()) {
      if (m.isAnnotationPresent(JSExport.class) && Modifier.isStatic(m.getModifiers())) {
        Integer before = out.put(m.getName(), m.getParameterCount());
        assertEquals(null, before, type.getSimpleName() + " exports " + m.getName() + " twice");
      }
    }
    assertTrue(!out.isEmpty(), type.getSimpleName() + " exports something (else the comparison proves nothing)");
    return out;
  }

  private static String read(Path p) {
    if (!Files.isRegularFile(p)) {
      throw new AssertionError("No " + p.toAbsolutePath() + " (the build copies src/main/typescript to target/js"
          + " in process-classes)");
    }
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
