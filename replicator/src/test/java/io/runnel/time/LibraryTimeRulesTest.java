package io.runnel.time;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.SourceTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A rule of the build: library code ({@code src/main} of every module an app depends on) never sleeps and never
 * starts a thread or makes an executor of its own. It pauses through the {@link Sleeper} its owner was given, so tests
 * drive time instead of waiting for it, and it starts threads through {@link Threads}, which names them and logs
 * their failures. The examples and the test support are not library code.
 */
class LibraryTimeRulesTest {

  /** Where threads and pauses may be made: this package. */
  static final String ALLOWED = "io/runnel/time/";

  /** Each forbidden call, and what to use instead. */
  static final List<Rule> RULES = List.of(
      new Rule("\\bThread\\s*\\.\\s*sleep\\s*\\(", "a Sleeper the owner is given"),
      new Rule("\\bTimeUnit\\s*\\.\\s*\\w+\\s*\\.\\s*sleep\\s*\\(", "a Sleeper the owner is given"),
      new Rule("\\bnew\\s+(?:java\\.lang\\.)?Thread\\s*\\(", "Threads.virtual or Threads.daemon"),
      new Rule("\\bThread\\s*\\.\\s*(ofPlatform|ofVirtual|startVirtualThread)\\s*\\(",
          "Threads.virtual or Threads.daemon"),
      new Rule("\\bExecutors\\s*\\.\\s*new\\w*\\s*\\(", "Threads.scheduler or Threads.serial"),
      new Rule("\\bnew\\s+(?:[\\w.]+\\.)?(ScheduledThreadPoolExecutor|ThreadPoolExecutor|ForkJoinPool|Timer)\\s*\\(",
          "Threads.scheduler or Threads.serial"));

  record Rule(Pattern pattern, String instead) {
    Rule(String regex, String instead) {
      this(Pattern.compile(regex), instead);
    }
  }

  @Test
  void libraryCodeNeitherSleepsNorStartsThreadsOfItsOwn() throws IOException {
    Path root = SourceTree.root();
    List<String> found = new ArrayList<>();
    int files = 0;
    for (String module : SourceTree.LIBRARY_MODULES) {
      Path sources = root.resolve(module).resolve("src/main/java");
      assertTrue(Files.isDirectory(sources), "no sources at " + sources);
      for (Path p : SourceTree.javaFiles(sources)) {
        files++;
        String relative = sources.relativize(p).toString().replace('\\', '/');
        if (!relative.startsWith(ALLOWED)) {
          violations(Files.readString(p)).forEach(v -> found.add(module + "/" + relative + ":" + v));
        }
      }
    }
    assertTrue(files > 100, "read only " + files + " source files: the walk missed the modules");
    assertEquals(List.of(), found, "library code sleeps or starts threads of its own (docs/reading-the-code.md, "
        + "\"Time and threads\")");
  }

  @Test
  void theRuleSeesEachForbiddenCallInCodeAndNoneInComments() {
    assertAll(
        () -> assertEquals(1, violations("class A { void f() throws Exception { Thread.sleep(5); } }").size()),
        () -> assertEquals(1, violations("class A { void f() throws Exception { TimeUnit.SECONDS.sleep(1); } }")
            .size()),
        () -> assertEquals(1, violations("class A { Thread t = new Thread(() -> {}); }").size()),
        () -> assertEquals(1, violations("class A { Thread t = Thread.ofVirtual().start(() -> {}); }").size()),
        () -> assertEquals(1, violations("class A { Object e = Executors.newSingleThreadScheduledExecutor(); }")
            .size()),
        () -> assertEquals(1, violations("class A { Object t = new java.util.Timer(); }").size()),
        () -> assertEquals(0, violations("/** Never Thread.sleep(1). */ class A { // new Thread(r)\n }").size()),
        () -> assertEquals(0, violations("class A { Sleeper s; void f() throws Exception { s.sleep(null); } }")
            .size()));
  }

  /** The forbidden calls in {@code source}, each as its line number and what to use instead; comments skipped. */
  static List<String> violations(String source) {
    String code = SourceTree.withoutComments(source);
    List<String> out = new ArrayList<>();
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(code);
      while (m.find()) {
        int line = SourceTree.lineOf(code, m.start());
        out.add(line + ": " + m.group().trim() + " (use " + rule.instead() + ")");
      }
    }
    return out;
  }
}
