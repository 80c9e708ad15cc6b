package io.runnel.example;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The board's page, served by the node from this module's classpath ({@code io/runnel/example/web/}): {@code GET /}
 * the page, {@code /app.js} its module script, {@code /app.css} its style, {@code /js/board-client.js} the bundle
 * TeaVM compiled. Same origin as the node, so the socket's origin rule and the session cookie just work. Nothing is
 * cached ({@code no-store}), so a rebuilt bundle shows on the next load.
 */
public final class BoardPage {

  private static final String ROOT = "io/runnel/example/web/";

  /** A served file: its media type and bytes. */
  // Read once at start and served as they are; never compared or hashed.
  @SuppressWarnings("ArrayRecordComponent")
  private record File(String type, byte[] bytes) {}

  private final Map<String, File> files;

  private BoardPage(Map<String, File> files) {
    this.files = files;
  }

  /**
   * Reads the page's files from the classpath.
   *
   * @throws IllegalStateException when one is missing (the bundle is written by this module's build, in
   *     {@code process-classes}: build with {@code ./runnel mvn -q package -pl examples/app -am})
   */
  public static BoardPage load() {
    Map<String, File> files = new LinkedHashMap<>();
    File index = new File("text/html; charset=utf-8", read("index.html"));
    files.put("/", index);
    files.put("/index.html", index);
    files.put("/app.js", new File("text/javascript; charset=utf-8", read("app.js")));
    files.put("/app.css", new File("text/css; charset=utf-8", read("app.css")));
    files.put("/js/board-client.js", new File("text/javascript; charset=utf-8", read("js/board-client.js")));
    return new BoardPage(Map.copyOf(files));
  }

  /** Registers a {@code GET} route for each file on {@code rules}. */
  public void routes(HttpRules rules) {
    Objects.requireNonNull(rules, "rules");
    files.forEach((path, file) -> rules.get(path, (req, res) -> {
      res.header(HeaderNames.CONTENT_TYPE, file.type());
      res.header(HeaderNames.CACHE_CONTROL, "no-store");
      res.send(file.bytes());
    }));
  }

  private static byte[] read(String name) {
    try (InputStream in = BoardPage.class.getClassLoader().getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("The page's file " + ROOT + name + " is not on the classpath. Build the module "
            + "(./runnel mvn -q package -pl examples/app -am): TeaVM writes js/board-client.js in process-classes.");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read " + ROOT + name, e);
    }
  }
}
