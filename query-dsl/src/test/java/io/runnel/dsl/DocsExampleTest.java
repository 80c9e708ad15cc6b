package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Mutator;
import io.runnel.dsl.server.Query;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java examples in {@code docs/dsl.md} compile against this module and build their declarations. */
class DocsExampleTest {

  private static final Path DOC = Path.of("..", "docs", "dsl.md");

  @Test
  void theDslGuidesExamplesCompileAndDeclareAWorkingApp(@TempDir Path dir) throws Exception {
    String doc = Files.readString(DOC);
    Matcher blocks = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    List<File> sources = new ArrayList<>();
    while (blocks.find()) {
      String code = blocks.group(1);
      Matcher type = Pattern.compile("public final class (\\w+)").matcher(code);
      assertTrue(type.find(), "each example block declares a public class:\n" + code);
      Path file = dir.resolve("src").resolve(type.group(1) + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, code);
      sources.add(file.toFile());
    }
    assertEquals(2, sources.size(), "the guide shows the client-safe and the server-only half");

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    Path classes = Files.createDirectories(dir.resolve("classes"));
    try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
      boolean ok = javac.getTask(null, files, diagnostics,
          List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString(), "-Xlint:all",
              "-Werror"),
          null, files.getJavaFileObjectsFromFiles(sources)).call();
      assertTrue(ok, "docs/dsl.md's examples compile without warnings: " + diagnostics.getDiagnostics());
    }

    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Declarations declarations =
          (Declarations) loader.loadClass("example.board.BoardServer").getField("DECLARATIONS").get(null);
      assertAll(
          () -> assertEquals(List.of("liveFeed", "myLikes"),
              declarations.queries().stream().map(Query::name).toList(), "queries"),
          () -> assertEquals(List.of("createPost", "likePost"),
              declarations.mutators().stream().map(Mutator::name).toList(), "mutators"),
          () -> assertEquals("org.acme", declarations.channel("org").orElseThrow().ref().topic("acme"), "topic"));
    }
  }
}
