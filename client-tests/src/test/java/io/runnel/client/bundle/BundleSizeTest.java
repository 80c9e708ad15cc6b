package io.runnel.client.bundle;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The size gate of the build: prints each bundle's minified and gzip size (TeaVM wrote them in
 * {@code process-classes}) and fails when the test app's bundle is over 60 KB gzip, so a change that drags a heavy
 * part of the class library into the browser fails CI at once.
 */
class BundleSizeTest {

  /** The cap on the test app's bundle: 60 KB (61,440 bytes) gzip, at gzip's best compression. */
  static final int TEST_APP_GZIP_CAP = 60 * 1024;

  private static final Path JS = Path.of("target", "js");

  @Test
  void theTestAppBundleIsWithinItsGzipCapAndEverySizeIsPrinted() {
    Size runtime = Size.of("runnel-client.js", read(JS.resolve("runnel-client.js")));
    Size app = Size.of("test-app.js", read(JS.resolve("test-app.js")));
    System.out.println(runtime.line());
    System.out.println(app.line());
    assertTrue(app.gzip() <= TEST_APP_GZIP_CAP, app.line() + " is over the cap of " + TEST_APP_GZIP_CAP
        + " B gzip: see docs/client.md (\"Bundles\") for what drags size in and how to find it");
  }

  @Test
  void bothBundlesAreEsModulesThatExportConnectOnly() {
    String runtime = text(JS.resolve("runnel-client.js"));
    String app = text(JS.resolve("test-app.js"));
    assertAll(
        () -> assertTrue(runtime.contains("export{"), "runnel-client.js is an ES module"),
        () -> assertTrue(app.contains("export{"), "test-app.js is an ES module"),
        () -> {
          assertTrue(exported(runtime, "connect"), "runnel-client.js exports connect");
          assertTrue(exported(app, "connect"), "test-app.js exports connect");
          for (String name : new String[] {"describe", "queryInput", "mutatorInput", "place", "runTwin"}) {
            assertTrue(!exported(runtime, name) && !exported(app, name),
                "the probe's " + name + " stays out of the shipped bundles (app-probe.js has it)");
          }
        });
  }

  @Test
  void theTestAppDoesNotLeakIntoTheRuntimeBundle() {
    String runtime = text(JS.resolve("runnel-client.js"));
    String app = text(JS.resolve("test-app.js"));
    assertAll(
        () -> assertTrue(app.contains("\"liveFeed\"") && app.contains("\"likePost\""),
            "the test app's bundle holds its ref names (the check below would prove nothing otherwise)"),
        () -> assertFalse(runtime.contains("liveFeed"), "runnel-client.js holds no test app query"),
        () -> assertFalse(runtime.contains("likePost"), "runnel-client.js holds no test app mutator"));
  }

  @Test
  void sizesAreCountedInBytesOfTheFileAndOfItsBestGzip() {
    byte[] repetitive = "abcabcabcabc".repeat(1000).getBytes(StandardCharsets.UTF_8);
    Size s = Size.of("x.js", repetitive);
    assertAll(
        () -> assertEquals(12_000, s.minified(), "minified is the file's length"),
        () -> assertTrue(s.gzip() > 18 && s.gzip() < 200, "gzip of a repetitive text is small: " + s.gzip()),
        () -> assertEquals("bundle x.js: 12000 B minified, " + s.gzip() + " B gzip", s.line(), "the printed line"));
  }

  @Test
  void aMissingBundleFailsRatherThanPassing() {
    assertThrows(AssertionError.class, () -> read(JS.resolve("no-such-bundle.js")));
  }

  /** A bundle's name and sizes. */
  record Size(String name, int minified, int gzip) {
    static Size of(String name, byte[] bytes) {
      return new Size(name, bytes.length, BundleSizeTest.gzip(bytes).length);
    }

    String line() {
      return "bundle " + name + ": " + minified + " B minified, " + gzip + " B gzip";
    }
  }

  /** The bytes gzip -9 would write. */
  static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(out) {
      {
        def.setLevel(Deflater.BEST_COMPRESSION);
      }
    }) {
      z.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Whether the module's closing {@code export{C as describe,…}} names {@code name}. */
  private static boolean exported(String module, String name) {
    int at = module.lastIndexOf("export{");
    String list = at < 0 ? "" : module.substring(at).replace(" ", "");
    return list.contains("as" + name + ",") || list.contains("as" + name + "}");
  }

  private static byte[] read(Path bundle) {
    if (!Files.isRegularFile(bundle)) {
      throw new AssertionError("TeaVM writes " + bundle.toAbsolutePath() + " in process-classes; run the build");
    }
    try {
      return Files.readAllBytes(bundle);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String text(Path bundle) {
    return new String(read(bundle), StandardCharsets.UTF_8);
  }
}
