package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.wire.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The client half never references the server half ({@code docs/dsl.md}, "Two halves"): no compiled class of
 * {@code io.runnel.dsl} (subpackages excluded) or {@code io.runnel.wire} names a type of {@code io.runnel.dsl.server},
 * {@code java.sql} or {@code java.security}, so TeaVM never pulls a JDBC call or a digest into a browser bundle.
 *
 * <p>A class file names every type it uses in its constant pool as a UTF-8 internal name ({@code java/sql/Connection}),
 * so searching the bytes for the package prefix finds every reference, including ones in signatures.
 */
class ClientSafeClassesTest {

  private static final List<String> FORBIDDEN = List.of("io/runnel/dsl/server/", "java/sql/", "java/security/");

  @Test
  void noClientSafeClassReferencesTheServerHalfJdbcOrSecurity() throws Exception {
    Path classes = Path.of(EntityRef.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Path> files = new ArrayList<>();
    files.addAll(classFiles(classes.resolve("io/runnel/dsl")));
    files.addAll(classFiles(classes.resolve("io/runnel/wire")));
    assertTrue(files.stream().anyMatch(f -> f.endsWith("EntityRef.class"))
            && files.stream().anyMatch(f -> f.endsWith(Json.class.getSimpleName() + ".class")),
        "the scan sees the compiled classes under " + classes);

    List<String> offenders = new ArrayList<>();
    for (Path f : files) {
      String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      for (String prefix : FORBIDDEN) {
        if (bytes.contains(prefix)) {
          offenders.add(classes.relativize(f) + " references " + prefix);
        }
      }
    }
    assertEquals(List.of(), offenders, "client-safe classes must not reference server-only types");
  }

  @Test
  void theScanFindsAReferenceWhereThereIsOne() throws Exception {
    Path classes = Path.of(EntityRef.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String mutator = new String(
        Files.readAllBytes(classes.resolve("io/runnel/dsl/server/Mutator$ServerFunction.class")),
        StandardCharsets.ISO_8859_1);
    assertTrue(mutator.contains("java/sql/"), "a server class that throws SQLException names java/sql/ in its bytes");
  }

  /** The {@code .class} files directly in {@code dir} (not in subfolders: those are other packages). */
  private static List<Path> classFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".class")).sorted().toList();
    }
  }
}
