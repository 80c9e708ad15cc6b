package io.runnel.time;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A rule of the build: library code ({@code src/main} of every module an app depends on) never sleeps and never
 * starts a thread or makes an executor of its own. It pauses through the {@link Sleeper} its owner was given, so tests
 * drive time instead of waiting for it, and it starts threads through {@link Threads}, which names them and logs
 * their failures. The examples and the test support are not library code.
 */
class LibraryTimeRulesTest {

  /** The library modules, from the repository's root. */
  static final List<String> MODULES = List.of("query-dsl", "protocol", "replicator", "sync-node", "client-teavm");

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
    Path root = root();
    List<String> found = new ArrayList<>();
    int files = 0;
    for (String module : MODULES) {
      Path sources = root.resolve(module).resolve("src/main/java");
      assertTrue(Files.isDirectory(sources), "no sources at " + sources);
      try (Stream<Path> walk = Files.walk(sources)) {
        for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
          files++;
          String relative = sources.relativize(p).toString().replace('\\', '/');
          if (!relative.startsWith(ALLOWED)) {
            violations(Files.readString(p)).forEach(v -> found.add(module + "/" + relative + ":" + v));
          }
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
    String code = withoutComments(source);
    List<String> out = new ArrayList<>();
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(code);
      while (m.find()) {
        int line = 1 + (int) code.substring(0, m.start()).chars().filter(c -> c == '\n').count();
        out.add(line + ": " + m.group().trim() + " (use " + rule.instead() + ")");
      }
    }
    return out;
  }

  /** {@code source} with its block and line comments blanked, keeping its line breaks (so line numbers hold). */
  static String withoutComments(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    boolean inString = false;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (inString) {
        out.append(c);
        if (c == '\\' && i + 1 < source.length()) {
          out.append(source.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
        i++;
      } else if (c == '"') {
        inString = true;
        out.append(c);
        i++;
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        end = end < 0 ? source.length() : end + 2;
        source.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
        i = end;
      } else if (source.startsWith("//", i)) {
        int end = source.indexOf('\n', i);
        i = end < 0 ? source.length() : end;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** The repository's root: the parent of this module's directory (the tests run in it). */
  static Path root() {
    Path here = Path.of("").toAbsolutePath();
    Path root = here.getParent();
    if (root == null || !Files.isDirectory(root.resolve("sync-node"))) {
      throw new UncheckedIOException(new IOException("not in a module of the repository: " + here));
    }
    return root;
  }
}
