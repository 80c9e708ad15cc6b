package io.runnel.client.bundle;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.browser.JsClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.teavm.jso.JSExport;

/**
 * The TypeScript declarations shipped next to the runtime bundle ({@code src/main/typescript}, copied to
 * {@code target/js} by the build) name exactly what the Java code exports, with as many parameters: the bundle's
 * functions ({@code @JSExport} statics of {@link RuntimeBundle}), the client's methods ({@link JsClient}) and the
 * handle's ({@link JsClient.Handle}). An app bundle's declarations re-export these ({@code client-tests} checks the
 * test app's).
 */
class TypeDeclarationsTest {

  private static final Path SOURCE = Path.of("src", "main", "typescript");
  private static final Path SHIPPED = Path.of("target", "js");

  @Test
  void theBundleFunctionsAreDeclaredAsRuntimeBundleExportsThem() {
    assertEquals(exports(RuntimeBundle.class, true), functions(declarations("runnel-client.d.ts")),
        "runnel-client.d.ts's `export function`s: names and parameter counts of RuntimeBundle's @JSExport statics");
  }

  @Test
  void theClientObjectIsDeclaredAsJsClientExportsIt() {
    assertEquals(exports(JsClient.class, false), members(declarations("runnel-client.d.ts"), "RunnelClient"),
        "interface RunnelClient: names and parameter counts of JsClient's @JSExport methods");
  }

  @Test
  void theHandleIsDeclaredAsJsClientHandleExportsIt() {
    assertEquals(exports(JsClient.Handle.class, false), members(declarations("runnel-client.d.ts"), "Handle"),
        "interface Handle: JsClient.Handle's @JSExport methods");
  }

  @Test
  void theBuildShipsTheDeclarationsNextToTheBundles() {
    assertAll(
        () -> assertEquals(declarations("runnel-client.d.ts"), shipped("runnel-client.d.ts"),
            "target/js/runnel-client.d.ts is the source's copy"),
        () -> assertTrue(Files.isRegularFile(SHIPPED.resolve("runnel-client.js")), "next to runnel-client.js"));
  }

  @Test
  void theReaderCountsParametersWhoseTypesHoldCommasOnce() {
    String ts = """
        export function one(a: string): void;
        export function none(): string;
        export interface Handle {
          release(): void;
        }
        export interface RunnelClient {
          query(name: string, input: unknown, onChange: (view: { a: 1; b: [2, 3] }, x: number) => void): Handle;
        }
        """;
    assertAll(
        () -> assertEquals(Map.of("one", 1, "none", 0), functions(ts)),
        () -> assertEquals(Map.of("query", 3), members(ts, "RunnelClient")),
        () -> assertEquals(Map.of("release", 0), members(ts, "Handle")),
        () -> assertThrows(AssertionError.class, () -> members(ts, "Missing"), "a missing interface fails"));
  }

  /** Each {@code @JSExport} method of {@code type} (static or not, as asked) and its parameter count, by name. */
  static Map<String, Integer> exports(Class<?> type, boolean statics) {
    Map<String, Integer> out = new TreeMap<>();
    for (Method m : type.getDeclaredMethods()) {
      if (m.isAnnotationPresent(JSExport.class) && Modifier.isStatic(m.getModifiers()) == statics) {
        Integer before = out.put(m.getName(), m.getParameterCount());
        assertEquals(null, before, type.getSimpleName() + " exports " + m.getName() + " twice");
      }
    }
    assertTrue(!out.isEmpty(), type.getSimpleName() + " exports something (else the comparison proves nothing)");
    return out;
  }

  /** The {@code export function name(…)} declarations and their parameter counts. */
  static Map<String, Integer> functions(String ts) {
    Map<String, Integer> out = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^export function (\\w+)\\((.*)\\):").matcher(ts);
    while (m.find()) {
      out.put(m.group(1), parameters(m.group(2)));
    }
    return out;
  }

  /** The methods of {@code export interface name { … }} (one per line) and their parameter counts. */
  static Map<String, Integer> members(String ts, String name) {
    Matcher block = Pattern.compile("(?ms)^export interface " + name + " \\{\\n(.*?)^}").matcher(ts);
    if (!block.find()) {
      throw new AssertionError("No `export interface " + name + " {` in the declarations");
    }
    Map<String, Integer> out = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^  (\\w+)\\((.*)\\): .*;$").matcher(block.group(1));
    while (m.find()) {
      out.put(m.group(1), parameters(m.group(2)));
    }
    return out;
  }

  /** How many parameters a TypeScript parameter list holds: its commas outside brackets, plus one. */
  static int parameters(String list) {
    if (list.isBlank()) {
      return 0;
    }
    int depth = 0;
    int count = 1;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if (c == ')' || c == '}' || c == ']') {
        depth--;
      } else if (c == ',' && depth == 0) {
        count++;
      }
    }
    return count;
  }

  private static String declarations(String file) {
    return read(SOURCE.resolve(file));
  }

  private static String shipped(String file) {
    return read(SHIPPED.resolve(file));
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
