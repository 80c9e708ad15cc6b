package io.runnel.client.smoke;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DSL's client-safe classes compile with TeaVM and behave in JavaScript exactly as on the JVM: the build's
 * {@code dsl-smoke} bundle is run under node and its transcript compared line by line with the JVM's.
 */
class DslSmokeTest {

  private static final Path BUNDLE = Path.of("target", "js", "dsl-smoke.js");

  @Test
  void theCompiledBundleRunsTheScenarioExactlyAsTheJvmDoes(@TempDir Path dir) throws Exception {
    assertTrue(Files.isRegularFile(BUNDLE), "TeaVM wrote " + BUNDLE.toAbsolutePath() + " in process-classes");
    Path node = Path.of("/usr/bin/node");
    if (!Files.isExecutable(node)) {
      assertTrue(System.getenv("CI") == null,
          "node is required in CI to run the TeaVM bundle (apt-get install nodejs)");
      assumeTrue(false, "node is not installed: the bundle compiled but was not run");
    }
    Path script = dir.resolve("run.mjs");
    Files.writeString(script, "import { run } from '" + BUNDLE.toAbsolutePath().toUri() + "';\n"
        + "process.stdout.write(run());\n");
    Process p = new ProcessBuilder(node.toString(), script.toString()).redirectErrorStream(true).start();
    String js = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "node finished");
    assertEquals(0, p.exitValue(), "node exit code; output:\n" + js);
    String jvm = DslSmoke.run();
    String[] expected = jvm.split("\n");
    String[] actual = js.split("\n");
    for (int i = 0; i < Math.min(expected.length, actual.length); i++) {
      assertEquals(expected[i], actual[i], "line " + (i + 1) + " of the transcript");
    }
    assertEquals(expected.length, actual.length, "transcript length");
  }

  @Test
  void theTranscriptShowsTheScenarioRan() {
    String jvm = DslSmoke.run();
    assertTrue(jvm.contains("twin like_count 4"), jvm);
    assertTrue(jvm.contains("refused X_INPUT_INVALID orgId"), jvm);
    assertTrue(jvm.contains("composite key [\"0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\",\"ada\"]"
        + " built [\"0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\",\"ada\"]"), jvm);
    assertTrue(jvm.contains("routing {price=1, score=0.0} value 10.5"), jvm);
    assertTrue(jvm.contains("numeric refused X_VALUE_INVALID"), jvm);
  }
}
