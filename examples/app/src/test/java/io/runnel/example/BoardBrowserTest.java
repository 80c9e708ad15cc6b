package io.runnel.example;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The board in Chromium, on the one process ({@link BoardApp}) over a real PostgreSQL and its WAL: two acme users in
 * two browser contexts see each other's posts and likes, a globex user sees neither, an UPDATE made straight in the
 * database shows on both pages, the org's members see each other online and typing (in an org whose id holds a
 * {@code .}, a {@code %} and a space too), and the pages reconnect by themselves when the sync node stops and starts.
 */
class BoardBrowserTest extends BoardWorldTest {

  static final double LIVE_MS = 2_000;

  static Locator post(Page page, String title) {
    return page.locator("#feed li").filter(new Locator.FilterOptions().setHasText(title));
  }

  @Test
  void twoUsersOfOneOrgSeeEachOthersPostsLikesAndDatabaseEditsLiveAndTheOtherOrgNeverDoes() throws Exception {
    Page ada = signedIn("ada");
    Page alan = signedIn("alan");
    Page grace = signedIn("grace");
    assertAll(
        () -> assertThat(ada.locator("#feed li")).hasCount(14),
        () -> assertThat(grace.locator("#feed li")).hasCount(6));

    ada.locator("#title").fill("Hello from ada");
    ada.locator("#body").fill("First live post");
    ada.locator("#post-form button").click();
    assertThat(post(alan, "Hello from ada")).isVisible(new LocatorAssertions
        .IsVisibleOptions().setTimeout(LIVE_MS));
    String id = post(ada, "Hello from ada").getAttribute("data-id");

    post(alan, "Hello from ada").locator("button.like").click();
    assertThat(post(ada, "Hello from ada")).hasAttribute("data-likes", "1",
        new LocatorAssertions.HasAttributeOptions().setTimeout(LIVE_MS));
    assertThat(post(alan, "Hello from ada")).hasAttribute("data-liked", "true", patiently());

    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.executeUpdate("UPDATE posts SET title = 'Edited in SQL' WHERE id = '" + BoardAppTest.seedPost(1) + "'");
    }
    assertThat(post(ada, "Edited in SQL")).isVisible();
    assertThat(post(alan, "Edited in SQL")).isVisible();

    ada.screenshot(new Page.ScreenshotOptions().setPath(Path.of("target/board.png")).setFullPage(true));
    assertAll(
        () -> assertThat(grace.locator("#feed li")).hasCount(6),
        () -> assertThat(post(grace, "Hello from ada")).hasCount(0),
        () -> assertThat(post(grace, "Edited in SQL")).hasCount(0),
        () -> assertEquals(1, rows("SELECT count(*) FROM posts WHERE id = '" + id + "'")),
        () -> assertEquals(1, rows("SELECT like_count FROM posts WHERE id = '" + id + "'")),
        () -> assertEquals(List.of(), pageErrors));
  }

  @Test
  void twoPagesOfOneOrgSeeEachOtherOnlineAndTypingAndTheOtherOrgSeesNeither() {
    Page ada = signedIn("ada");
    Page alan = signedIn("alan");
    Page grace = signedIn("grace");
    assertThat(ada.locator("#online li[data-key=alan]")).isVisible();
    assertThat(alan.locator("#online li[data-key=ada]")).isVisible();
    assertThat(ada.locator("#online-state")).hasAttribute("data-state", "live", patiently());
    alan.locator("#title").pressSequentially("Hel");
    assertThat(ada.locator("#typing")).hasText("alan is typing…");
    assertThat(alan.locator("#typing")).isHidden();
    ada.locator("#body").pressSequentially("Wor");
    assertThat(alan.locator("#typing")).hasText("ada is typing…");
    // Read at once: the label goes 3 to 4 s after the last typing event.
    String typingOnAlan = alan.locator("#typing").textContent();
    assertAll(
        () -> assertThat(grace.locator("#online li")).hasCount(1),
        () -> assertThat(grace.locator("#online li[data-key=grace]")).isVisible(),
        () -> assertThat(grace.locator("#typing")).isHidden(),
        () -> assertEquals("ada is typing…", typingOnAlan,
            "the page's own text: the one typist, and not alan himself"),
        () -> assertEquals(List.of(), pageErrors));
  }

  @Test
  void anOrgWhoseIdHoldsADotAPercentAndASpaceHasItsOwnTopicForPresenceAndTyping() throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO orgs (id, name) VALUES ('ac.me 50%', 'Odd')");
      s.executeUpdate("INSERT INTO users (id, org_id, name) VALUES ('dot', 'ac.me 50%', 'Dot'),"
          + " ('pct', 'ac.me 50%', 'Pct')");
    }
    Page dot = signedInUnlisted("dot");
    Page pct = signedInUnlisted("pct");
    assertThat(dot.locator("#online li[data-key=pct]")).isVisible();
    assertThat(pct.locator("#online li[data-key=dot]")).isVisible();
    pct.locator("#title").pressSequentially("Hel");
    assertThat(dot.locator("#typing")).hasText("pct is typing…");
    assertAll(
        () -> assertEquals("org.ac%2Eme%2050%25", dot.evaluate("board.runnel.topic('org', { orgId: board.org })")),
        () -> assertEquals(List.of(), pageErrors));
  }

  /** A page signed in as {@code user}, a user the picker does not list, through the page's own sign-in. */
  static Page signedInUnlisted(String user) {
    Page page = chromium.newContext().newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.onPageError(pageErrors::add);
    page.navigate("http://127.0.0.1:" + app.port() + "/");
    page.evaluate("user => sessionStorage.setItem('board.user', user)", user);
    page.reload();
    ready(page);
    return page;
  }

  @Test
  void thePagesReconnectByThemselvesWhenTheNodeStopsAndStartsAndLoseNothing() throws Exception {
    Page ada = signedIn("ada");
    Page alan = signedIn("alan");
    app.stopNode();
    assertThat(ada.locator("#connection")).not().hasAttribute("data-state", "online", patiently());
    ada.locator("#title").fill("Posted while the node was down");
    ada.locator("#post-form button").click();
    assertThat(ada.locator("#outbox")).hasAttribute("data-pending", "1", patiently());
    app.startNode();
    assertThat(ada.locator("#connection")).hasAttribute("data-state", "online", patiently());
    assertThat(alan.locator("#connection")).hasAttribute("data-state", "online", patiently());
    assertThat(post(alan, "Posted while the node was down")).isVisible();
    assertThat(ada.locator("#outbox")).hasAttribute("data-pending", "0", patiently());
    assertEquals(1, rows("SELECT count(*) FROM posts WHERE title = 'Posted while the node was down'"),
        "applied exactly once");
  }
}
