package io.runnel.client.testapp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The test app's probe bundle ({@code app-probe.js}, {@link AppProbe}) runs under node and answers every call
 * exactly as {@link BundleApi} does on the JVM over the same refs, so the DSL's client-safe classes (codecs, the
 * matcher and its order, timestamps, twins) behave alike once TeaVM compiled them. One part differs by design: text
 * that is not JSON is refused by the browser's {@code JSON.parse} in a bundle and by the DSL's parser on the JVM, so
 * the cause of that error is compared up to the parser's own words ({@link #SYNTAX}).
 */
class TestAppBundleTest {

  /** The start of a JSON syntax error's cause; the parser's words after it differ between node and the JVM. */
  static final String SYNTAX = "The body is not valid JSON: ";

  private static final String A = "0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69";
  private static final String C = "2b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69";

  /** One exported call: its function and arguments (null passes JS null). */
  record Call(String function, String... args) {}

  private static List<Call> scenario() {
    String records = "[" + post(A, "2024-01-01T00:00:00Z") + "," + post(C, "2024-01-02T00:00:00.5Z") + "]";
    String typed = "[{\"type\":\"posts\",\"record\":" + post(A, "2024-01-01T00:00:00Z") + "}]";
    return List.of(
        new Call("describe"),
        new Call("queryInput", "liveFeed", "{\"orgId\":\"acme\"}"),
        new Call("queryInput", "liveFeed", "{\"orgId\":7}"),
        new Call("queryInput", "liveFeed", "{\"orgId\":"),
        new Call("queryInput", "nope", "{}"),
        new Call("mutatorInput", "likePost", "{\"postId\":\"" + A.toUpperCase(Locale.ROOT) + "\"}"),
        new Call("mutatorInput", "likePost", "{}"),
        new Call("place", "liveFeed", "{\"orgId\":\"acme\"}", null, records),
        new Call("place", "liveFeed", "{\"orgId\":\"acme\"}", "ada", "[{\"id\":\"" + A + "\"}]"),
        new Call("runTwin", "likePost", "{\"postId\":\"" + A + "\"}", typed),
        new Call("runTwin", "likePost", "{\"postId\":\"" + C + "\"}", typed));
  }

  private static String post(String id, String createdAt) {
    return "{\"id\":\"" + id + "\",\"org_id\":\"acme\",\"author_id\":\"ada\",\"title\":\"Héllo \\u20ac\","
        + "\"like_count\":2147483646,\"liked_by_me\":false,\"created_at\":\"" + createdAt + "\"}";
  }

  private static String jvm(Call c) {
    String[] a = c.args();
    return switch (c.function()) {
      case "describe" -> AppProbe.describe();
      case "queryInput" -> AppProbe.queryInput(a[0], a[1]);
      case "mutatorInput" -> AppProbe.mutatorInput(a[0], a[1]);
      case "place" -> AppProbe.place(a[0], a[1], a[2], a[3]);
      case "runTwin" -> AppProbe.runTwin(a[0], a[1], a[2]);
      default -> throw new IllegalArgumentException(c.function());
    };
  }

  @Test
  void theTestAppProbeBundleAnswersAsTheJvmDoes(@TempDir Path dir) throws Exception {
    compare(Path.of("target", "js-probe", "app-probe.js"), dir);
  }

  @Test
  void theScenarioExercisesEveryExportWithAnswersAndErrors() {
    List<String> answers = new ArrayList<>();
    for (Call c : scenario()) {
      answers.add(jvm(c));
    }
    String all = String.join("\n", answers);
    assertTrue(all.contains("\"like_count\":2147483647"), all);
    assertTrue(all.contains("{\"keys\":[\"" + C + "\",\"" + A + "\"]}"), all);
    assertTrue(all.contains("X_LIVE_QUERY_UNKNOWN") && all.contains("X_INPUT_INVALID"), all);
    assertTrue(all.contains(SYNTAX + "unexpected end of input at offset 9."), all);
    assertEquals("{\"cause\":\"" + SYNTAX + "…\",\"fix\":\"x\"}",
        normalised("{\"cause\":\"" + SYNTAX + "Unexpected token \\\"}\\\" at 3.\",\"fix\":\"x\"}"),
        "a cause is cut after its escaped quotes, at its closing quote");
  }

  private static void compare(Path bundle, Path dir) throws Exception {
    assertTrue(Files.isRegularFile(bundle), "TeaVM wrote " + bundle.toAbsolutePath() + " in process-classes");
    Path node = Path.of("/usr/bin/node");
    if (!Files.isExecutable(node)) {
      assertTrue(System.getenv("CI") == null, "node is required in CI to run the TeaVM bundles");
      assumeTrue(false, "node is not installed: the bundle compiled but was not run");
    }
    StringBuilder js = new StringBuilder("import * as b from '" + bundle.toAbsolutePath().toUri() + "';\n");
    js.append("const out = [];\n");
    js.append("const norm = s => s.replace(/(").append(SYNTAX).append(")(?:[^\"\\\\]|\\\\.)*/, '$1…');\n");
    List<String> expected = new ArrayList<>();
    for (Call c : scenario()) {
      StringBuilder args = new StringBuilder();
      for (String a : c.args()) {
        args.append(args.length() == 0 ? "" : ", ").append(a == null ? "null" : quote(a));
      }
      js.append("out.push(norm(b.").append(c.function()).append('(').append(args).append(")));\n");
      expected.add(normalised(jvm(c)));
    }
    js.append("process.stdout.write(JSON.stringify(out));\n");
    Path script = dir.resolve("run.mjs");
    Files.writeString(script, js);
    Process p = new ProcessBuilder(node.toString(), script.toString()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "node finished");
    assertEquals(0, p.exitValue(), "node exit code; output:\n" + output);
    StringBuilder want = new StringBuilder("[");
    for (String e : expected) {
      want.append(want.length() == 1 ? "" : ",").append(quote(e));
    }
    assertEquals(want.append(']').toString(), output, "every answer, in order");
  }

  /** {@code answer} with a JSON syntax error's cause cut after {@link #SYNTAX}, as the node script cuts it. */
  static String normalised(String answer) {
    int at = answer.indexOf(SYNTAX);
    if (at < 0) {
      return answer;
    }
    int end = at;
    while (answer.charAt(end) != '"') {
      end += answer.charAt(end) == '\\' ? 2 : 1;
    }
    return answer.substring(0, at + SYNTAX.length()) + "…" + answer.substring(end);
  }

  /** A JS/JSON string literal of {@code s} (JSON.stringify's escaping for the characters these texts hold). */
  private static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
