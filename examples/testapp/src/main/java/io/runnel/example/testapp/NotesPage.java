package io.runnel.example.testapp;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * The app's page as the node serves it ({@code SyncNode.Builder.routing}), from this module's classpath:
 * {@code GET /} (and {@code /index.html}) the page, {@code /app.js} its module script, {@code /js/notes-app.js} the
 * bundle TeaVM compiled. Same origin as the node, so the socket's origin rule admits the page. Scripts go out as
 * {@code text/javascript} (a module script needs a JavaScript type); nothing is cached, so a rebuilt bundle shows on
 * the next load.
 */
public final class NotesPage {

  private static final String ROOT = "io/runnel/example/testapp/web/";
  private static final String HTML = "text/html; charset=utf-8";
  private static final String SCRIPT = "text/javascript; charset=utf-8";

  private final byte[] index;
  private final byte[] app;
  private final byte[] bundle;

  private NotesPage(byte[] index, byte[] app, byte[] bundle) {
    this.index = index;
    this.app = app;
    this.bundle = bundle;
  }

  /**
   * Reads the page's three files from the classpath.
   *
   * @throws IllegalStateException when one is missing (the bundle is written by this module's build, in
   *     {@code process-classes})
   */
  public static NotesPage load() {
    return new NotesPage(read("index.html"), read("app.js"), read("js/notes-app.js"));
  }

  /** Registers {@code GET /}, {@code /index.html}, {@code /app.js} and {@code /js/notes-app.js} on {@code rules}. */
  public void routes(HttpRules rules) {
    Objects.requireNonNull(rules, "rules")
        .get("/", (req, res) -> send(res, HTML, index))
        .get("/index.html", (req, res) -> send(res, HTML, index))
        .get("/app.js", (req, res) -> send(res, SCRIPT, app))
        .get("/js/notes-app.js", (req, res) -> send(res, SCRIPT, bundle));
  }

  private static void send(ServerResponse res, String type, byte[] body) {
    res.header(HeaderNames.CONTENT_TYPE, type);
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.send(body);
  }

  private static byte[] read(String name) {
    try (InputStream in = NotesPage.class.getClassLoader().getResourceAsStream(ROOT + name)) {
      if (in == null) {
        throw new IllegalStateException("The page's file " + ROOT + name + " is not on the classpath. Build the module "
            + "(./runnel mvn -q package -pl examples/testapp -am): TeaVM writes js/notes-app.js in process-classes.");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read " + ROOT + name, e);
    }
  }
}
