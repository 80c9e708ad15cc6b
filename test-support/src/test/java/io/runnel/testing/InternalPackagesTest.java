package io.runnel.testing;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A rule of the build: a package with an {@code internal} segment ({@code io.runnel.sync.socket.internal}) belongs to
 * the module whose {@code src/main} holds it, and only that module's code, main or test, imports or names its types.
 * Every other module and every example uses the module's API packages alone, so an internal type can change without
 * a caller outside its module noticing ({@code docs/reading-the-code.md}, "Internal packages").
 */
class InternalPackagesTest {

  /** The packages the rule is about: Runnel's. */
  private static final String ROOT = "io.runnel";

  private static final Pattern PACKAGE = Pattern.compile("^[ \\t]*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);

  @Test
  void noModuleNamesAnotherModulesInternalTypes() throws IOException {
    Path root = SourceTree.root();
    List<String> modules = modules(root);
    assertTrue(modules.containsAll(SourceTree.LIBRARY_MODULES), "the walk missed modules: " + modules);
    Map<String, String> owners = new TreeMap<>();
    for (String module : modules) {
      for (Path p : SourceTree.javaFiles(root.resolve(module).resolve("src/main/java"))) {
        packageOf(Files.readString(p)).filter(InternalPackagesTest::internal)
            .ifPresent(pkg -> owners.putIfAbsent(pkg, module));
      }
    }
    assertTrue(owners.keySet().stream().anyMatch(p -> p.startsWith("io.runnel.sync.")),
        "no internal package found in sync-node: " + owners);
    List<String> found = new ArrayList<>();
    int files = 0;
    for (String module : modules) {
      for (String set : List.of("src/main/java", "src/test/java")) {
        for (Path p : SourceTree.javaFiles(root.resolve(module).resolve(set))) {
          files++;
          String where = root.relativize(p).toString().replace('\\', '/');
          violations(ROOT, module, Files.readString(p), owners).forEach(v -> found.add(where + ":" + v));
        }
      }
    }
    assertTrue(files > 300, "read only " + files + " source files: the walk missed the modules");
    assertEquals(List.of(), found, "code names another module's internal types (docs/reading-the-code.md, "
        + "\"Internal packages\")");
  }

  /** The root of the self-test's packages, so that this file breaks no rule of its own. */
  private static final String FIXTURE = "com.example";

  @Test
  void theRuleSeesImportsAndQualifiedNamesInCodeAndNoneInComments() {
    assertAll(
        () -> assertEquals(List.of(), fixture("a", "package com.example.a;\nimport com.example.a.internal.X;\n"),
            "the owner's own main and test code may use it"),
        () -> assertEquals(1, fixture("b", "package com.example.b;\nimport com.example.a.internal.X;\n").size(),
            "an import from another module"),
        () -> assertEquals(1, fixture("b", "package com.example.b;\nimport static com.example.a.internal.X.f;\n")
            .size(), "a static import"),
        () -> assertEquals(1, fixture("b", "package com.example.b;\nimport com.example.a.internal.*;\n").size(),
            "a wildcard import"),
        () -> assertEquals(1, fixture("b", "package com.example.b;\nclass B { com.example.a.internal.deep.Y y; }")
            .size(), "a qualified name in code"),
        () -> assertEquals(1, fixture("b", "package com.example.b;\n"
            + "class B { String s = \"com.example.a.internal.X\"; }").size(),
            "a class name in a string, as reflection would use"),
        () -> assertEquals(1, fixture("b", "package com.example.a.internal;\nclass Sneak {}").size(),
            "a class of another module put into the package"),
        () -> assertEquals(1, fixture("b", "package com.example.b;\nimport com.example.gone.internal.X;\n").size(),
            "an internal package no module holds"),
        () -> assertEquals(List.of(), fixture("b", "package com.example.b;\n/** See com.example.a.internal.X. */\n"
            + "class B { // com.example.a.internal.X\n char q = '\"'; }"), "comments do not count"),
        () -> assertEquals(List.of(), fixture("b", "package com.example.b;\nimport com.example.a.internalish.X;\n"
            + "import com.example.a.Internal;\n"), "only a whole internal segment counts"),
        () -> assertEquals(List.of("3: names com.example.a.internal, internal to a"),
            fixture("b", "package com.example.b;\n\nimport com.example.a.internal.X;\n"), "the line is the import's"));
  }

  /** The rule over {@code source} as a file of {@code module}, with module {@code a} holding two internal packages. */
  private static List<String> fixture(String module, String source) {
    return violations(FIXTURE, module, source,
        Map.of("com.example.a.internal", "a", "com.example.a.internal.deep", "a"));
  }

  /**
   * What in {@code source}, a file of {@code module}, breaks the rule: each as its line and the name it uses.
   *
   * @param root the packages the rule is about, as a prefix ({@code io.runnel})
   * @param owners each internal package and the module that holds it
   */
  static List<String> violations(String root, String module, String source, Map<String, String> owners) {
    // An import or a qualified name that reaches into an internal package, up to its type or the import's '*'.
    Pattern reference = Pattern.compile("\\b" + Pattern.quote(root)
        + "(?:\\.[a-z_][\\w]*)*\\.internal(?:\\.[a-z_][\\w]*)*\\b");
    String code = SourceTree.withoutComments(source);
    List<String> out = new ArrayList<>();
    Optional<String> own = packageOf(code);
    if (own.isPresent() && own.get().startsWith(root + ".") && internal(own.get())
        && !module.equals(owners.get(own.get()))) {
      Matcher declaration = PACKAGE.matcher(code);
      int line = declaration.find() ? SourceTree.lineOf(code, declaration.start()) : 1;
      out.add(line + ": declares package " + own.get() + ", which belongs to "
          + owners.getOrDefault(own.get(), "no module"));
    }
    String body = PACKAGE.matcher(code).replaceFirst("");
    Matcher m = reference.matcher(body);
    while (m.find()) {
      String pkg = m.group();
      String owner = owners.get(pkg);
      if (!module.equals(owner)) {
        out.add(SourceTree.lineOf(body, m.start()) + ": names " + pkg + ", internal to "
            + (owner == null ? "no module" : owner));
      }
    }
    return out;
  }

  private static boolean internal(String pkg) {
    return ("." + pkg + ".").contains(".internal.");
  }

  private static Optional<String> packageOf(String source) {
    Matcher m = PACKAGE.matcher(source);
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The modules of the reactor and the examples, as directories from {@code root}: those with a {@code src}. */
  private static List<String> modules(Path root) throws IOException {
    List<String> out = new ArrayList<>();
    for (Path parent : List.of(root, root.resolve("examples"))) {
      try (Stream<Path> dirs = Files.list(parent)) {
        dirs.filter(d -> Files.isDirectory(d.resolve("src"))).sorted()
            .forEach(d -> out.add(root.relativize(d).toString().replace('\\', '/')));
      }
    }
    return out;
  }
}
