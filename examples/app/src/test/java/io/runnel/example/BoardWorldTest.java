package io.runnel.example;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import io.runnel.server.AllRole;
import io.runnel.server.DevSignIn.DevUser;
import io.runnel.testing.Chromium;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A browser test class over the board: the one process ({@link BoardApp}, development mode) on a fresh database and
 * Chromium, started once per class, and pages signed in through the page's own picker.
 */
@FreshDatabase
abstract class BoardWorldTest {

  static final double WAIT_MS = 15_000;

  static {
    // An assertion given no timeout waits this long, not Playwright's 5 s: a page on a busy machine may take longer
    // to show what a node restart or an SQL edit changed. A latency a test means to bound is passed explicitly.
    PlaywrightAssertions.setDefaultAssertionTimeout(WAIT_MS);
  }

  static AllRole app;
  static Chromium chromium;
  static TestDatabase db;
  /** Every uncaught error of every page the class opened. */
  static final List<String> pageErrors = new ArrayList<>();

  @BeforeAll
  static void start(TestDatabase database) throws Exception {
    db = database;
    pageErrors.clear();
    // Besides the seed's users, two of an org whose id holds a dot, a percent and a space, whom the picker does not
    // list (BoardBrowserTest signs them in through the page's own sign-in).
    app = AllRole.start(BoardApp.SERVER.withDevUsers(List.of(new DevUser("dot", "ac.me 50%"),
        new DevUser("pct", "ac.me 50%"))), BoardApp.config(BoardHttp.env(database, "RUNNEL_DEV", "true"),
        Path.of("target")));
    chromium = Chromium.launch();
  }

  @AfterAll
  static void stop() {
    try {
      if (chromium != null) {
        chromium.close();
      }
    } finally {
      if (app != null) {
        app.close();
      }
    }
  }

  /** A new browser context with one page, its feed ready and its socket online, signed in as {@code user}. */
  static Page signedIn(String user) {
    return signedIn(user, chromium.newContext().newPage());
  }

  /** {@code page} (its routes and scripts already set) signed in as {@code user}, its feed ready and online. */
  static Page signedIn(String user, Page page) {
    page.setDefaultTimeout(WAIT_MS);
    page.onPageError(pageErrors::add);
    page.navigate("http://127.0.0.1:" + app.port() + "/");
    assertThat(page.locator("#sign-in")).isVisible();
    page.locator("[data-user=" + user + "]").click();
    ready(page);
    return page;
  }

  /** Waits for {@code page}'s feed to be ready and its socket online. */
  static void ready(Page page) {
    assertThat(page.locator("#feed")).hasAttribute("data-status", "ready", patiently());
    assertThat(page.locator("#connection")).hasAttribute("data-state", "online", patiently());
  }

  static LocatorAssertions.HasAttributeOptions patiently() {
    return new LocatorAssertions.HasAttributeOptions().setTimeout(WAIT_MS);
  }

  /** The one integer {@code sql} answers. */
  static int rows(String sql) throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getInt(1);
    }
  }
}
