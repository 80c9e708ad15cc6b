package io.runnel.client.browser;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import io.runnel.testing.Chromium;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Pages of {@code http://localhost/} in Debian's Chromium that load {@code browser-probe.js} (the bindings, compiled
 * by the build like the shipped bundles) as {@code window.probe}. Playwright answers every request of a context
 * ({@code page.route}), so no server runs, and the origin is a secure context: Web Locks exist there. Each test
 * takes a fresh context (its own IndexedDB, localStorage and locks); the pages of one context share them, as the
 * tabs of one origin do.
 *
 * <p>The page also defines helpers: {@code listed(store, prefix)} (a promise of what {@code store.list} hears) and
 * {@code rawIndexedDb()} (every entry of the {@code runnel} database, read with IndexedDB's own API).
 */
final class ProbePages implements AutoCloseable {

  static final String ORIGIN = "http://localhost";

  private static final Path PROBE = Path.of("target", "js-probe", "browser-probe.js");

  private static final String PAGE = """
      <!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>
      <script type="module">
      import * as probe from '/browser-probe.js';
      window.listed = (store, prefix) => new Promise(done => store.list(prefix, done));
      window.rawIndexedDb = () => new Promise((resolve, reject) => {
        const open = indexedDB.open('runnel');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result, all = {};
          if (!db.objectStoreNames.contains('kv')) { db.close(); resolve(all); return; }
          const req = db.transaction('kv', 'readonly').objectStore('kv').openCursor();
          req.onsuccess = () => { const at = req.result;
            if (at) { all[at.key] = at.value; at.continue(); } else { db.close(); resolve(all); } };
        };
      });
      window.probe = probe;
      </script></body></html>
      """;

  private final Chromium chromium = Chromium.launch();
  private final byte[] bundle = read(PROBE);
  private final List<String> pageErrors = new ArrayList<>();

  /**
   * A fresh context whose requests to {@link #ORIGIN} this class answers; {@code initScript} runs first in each page.
   */
  BrowserContext context(String... initScripts) {
    BrowserContext context = chromium.newContext();
    for (String script : initScripts) {
      context.addInitScript(script);
    }
    context.route(ORIGIN + "/**", route -> {
      String url = route.request().url();
      if (url.equals(ORIGIN + "/browser-probe.js")) {
        route.fulfill(new Route.FulfillOptions().setContentType("text/javascript").setBodyBytes(bundle));
      } else if (url.equals(ORIGIN + "/")) {
        route.fulfill(new Route.FulfillOptions().setContentType("text/html").setBody(PAGE));
      } else {
        route.fulfill(new Route.FulfillOptions().setStatus(404));
      }
    });
    return context;
  }

  /** A new page of {@code context} with the probe loaded. */
  Page open(BrowserContext context) {
    Page page = context.newPage();
    page.onPageError(pageErrors::add);
    load(page);
    return page;
  }

  /** Loads (or reloads) the probe page in {@code page} and waits for the probe. */
  static void load(Page page) {
    page.navigate(ORIGIN + "/");
    page.waitForFunction("() => window.probe !== undefined");
  }

  /** The uncaught errors the pages reported so far (none, when the bindings behave). */
  List<String> pageErrors() {
    return List.copyOf(pageErrors);
  }

  @Override
  public void close() {
    chromium.close();
  }

  private static byte[] read(Path p) {
    if (!Files.isRegularFile(p)) {
      throw new IllegalStateException("No " + p.toAbsolutePath() + ": the build's browser-probe execution writes it"
          + " in process-classes");
    }
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
