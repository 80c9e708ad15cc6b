package io.runnel.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The repository's Java sources, for the tests that check a rule of the build over them (library code never sleeps;
 * an {@code internal} package is used only by its own module). Paths are as the file system gives them; a module is
 * named by its directory from the root ({@code sync-node}, {@code examples/app}).
 */
public final class SourceTree {

  /** The modules an app depends on (library code), from the repository's root. */
  public static final List<String> LIBRARY_MODULES =
      List.of("query-dsl", "protocol", "replicator", "sync-node", "client-teavm", "server");

  private SourceTree() {}

  /**
   * The repository's root: the parent of the directory the tests run in (Maven runs a module's tests in the module's
   * directory), or its grandparent for a module under {@code examples/}.
   *
   * @throws UncheckedIOException when neither holds the reactor's {@code sync-node} module
   */
  public static Path root() {
    Path here = Path.of("").toAbsolutePath();
    for (Path p = here.getParent(); p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("sync-node")) && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new UncheckedIOException(new IOException("not in a module of the repository: " + here));
  }

  /**
   * Every {@code .java} file under {@code dir}, in a stable order (sorted by path); none when {@code dir} does not
   * exist.
   *
   * @throws UncheckedIOException when the walk fails
   */
  public static List<Path> javaFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code source} with its block and line comments (javadoc included) left out, keeping its line breaks so line
   * numbers hold, and keeping string, text block and character literals as they are (a {@code //} inside a string is
   * not a comment).
   */
  public static String withoutComments(String source) {
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
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        end = end < 0 ? source.length() : end + 3;
        out.append(source, i, end);
        i = end;
      } else if (c == '"') {
        inString = true;
        out.append(c);
        i++;
      } else if (c == '\'') {
        int end = source.indexOf('\'', i + (source.startsWith("'\\", i) ? 3 : 1));
        end = end < 0 ? source.length() : end + 1;
        out.append(source, i, end);
        i = end;
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

  /** The line (from 1) of {@code offset} in {@code text}. */
  public static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset && i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
