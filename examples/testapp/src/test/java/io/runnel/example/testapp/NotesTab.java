package io.runnel.example.testapp;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One page of the app in Chromium, and what a test does to it: writes through the page's {@code window.putNote} /
 * {@code addNote}, waits on what it renders, and controls its {@code POST /v1/mutate/…} requests through
 * {@code page.route} (aborted as a network failure, held, or let through). It counts the mutate requests the node
 * answered ({@link #answered()}), and keeps every uncaught page error.
 */
final class NotesTab {

  /** How long a wait on the page lasts before the test fails. */
  static final double WAIT_MS = 15_000;

  static {
    PlaywrightAssertions.setDefaultAssertionTimeout(WAIT_MS);
  }

  final Page page;
  private final List<String> answered = new ArrayList<>();
  private final List<String> pageErrors = new ArrayList<>();
  private final List<Route> held = new ArrayList<>();
  private final List<Route> lost = new ArrayList<>();
  private boolean abortWrites;
  private boolean holdWrites;
  private boolean loseAnswers;

  private NotesTab(Page page) {
    this.page = page;
  }

  /** Opens the page at {@code url} in {@code context} and waits until its list is ready and it is online. */
  static NotesTab open(BrowserContext context, String url) {
    Page page = context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    NotesTab tab = new NotesTab(page);
    page.route("**/v1/mutate/**", tab::route);
    page.onResponse(r -> {
      if (r.url().contains("/v1/mutate/")) {
        tab.answered.add(r.request().headerValue("idempotency-key"));
      }
    });
    page.onPageError(tab.pageErrors::add);
    page.navigate(url);
    tab.awaitOnlineAndReady();
    return tab;
  }

  private void route(Route route) {
    if (abortWrites) {
      route.abort("internetdisconnected");
    } else if (holdWrites) {
      held.add(route);
    } else if (loseAnswers) {
      route.fetch();
      lost.add(route);
    } else {
      route.resume();
    }
  }

  /** From now on, every mutate request fails as a network failure, before it reaches the node. */
  void abortWrites() {
    abortWrites = true;
  }

  /** From now on, mutate requests wait in the browser until {@link #letWritesThrough()}. */
  void holdWrites() {
    holdWrites = true;
  }

  /**
   * From now on, mutate requests reach the node (which applies them) but the page never hears the answer: the
   * request stays in flight, as when a connection drops after the node committed.
   */
  void loseAnswers() {
    loseAnswers = true;
  }

  /** How many mutate requests reached the node without the page hearing the answer. */
  int lost() {
    return lost.size();
  }

  /** Mutate requests go to the node again; held ones go now, aborted ones when the outbox retries them. */
  void letWritesThrough() {
    abortWrites = false;
    holdWrites = false;
    List<Route> now = List.copyOf(held);
    held.clear();
    now.forEach(Route::resume);
  }

  /** How many mutate requests are held now. */
  int held() {
    return held.size();
  }

  /** The idempotency keys of the mutate requests the node answered, in order. */
  List<String> answered() {
    return List.copyOf(answered);
  }

  /** Uncaught errors of the page's scripts, and the errors its client reported that no call was tied to. */
  List<String> errors() {
    // Evaluated first: page errors that arrive meanwhile are dispatched during the call.
    Object reported = page.evaluate("JSON.stringify(window.errors || [])");
    List<String> out = new ArrayList<>(pageErrors);
    if (!"[]".equals(reported)) {
      out.add((String) reported);
    }
    return out;
  }

  /** Reloads the page (the node must still serve it) and waits until it is online and its list ready. */
  void reload() {
    page.reload();
    awaitOnlineAndReady();
  }

  void awaitOnlineAndReady() {
    assertThat(page.locator("#connection")).hasAttribute("data-state", "online");
    assertThat(page.locator("#notes")).hasAttribute("data-status", "ready");
  }

  /** Waits until the connection shows {@code state}. */
  void awaitConnection(String state) {
    assertThat(page.locator("#connection")).hasAttribute("data-state", state);
  }

  /** Adds a note titled {@code title} with a fresh uuid, through the page; answers the uuid. */
  String add(String title) {
    return (String) page.evaluate("t => window.addNote(t)", title);
  }

  /** Renames note {@code id} to {@code title} through the page, and answers the title it shows right after. */
  String renameAndRead(String id, String title) {
    return (String) page.evaluate("([id, t]) => { window.putNote(id, t);"
        + " const li = document.querySelector(`#notes li[data-id=\"${id}\"]`); return li ? li.dataset.title : null; }",
        List.of(id, title));
  }

  /** Waits until the list shows exactly {@code titles}, in order. */
  void awaitTitles(String... titles) {
    page.waitForFunction("ts => JSON.stringify([...document.querySelectorAll('#notes li')].map(li => li.dataset.title))"
        + " === JSON.stringify(ts)", List.of(titles), new Page.WaitForFunctionOptions().setTimeout(WAIT_MS));
  }

  /** Waits until the outbox shows {@code pending} pending writes and no failed one. */
  void awaitPending(int pending) {
    assertThat(page.locator("#outbox")).hasAttribute("data-pending", String.valueOf(pending));
    assertThat(page.locator("#outbox")).hasAttribute("data-failed", "0");
  }

  /** Waits until the outbox shows at least {@code pending} pending writes. */
  void awaitPendingAtLeast(int pending) {
    page.waitForFunction("n => Number(document.querySelector('#outbox').dataset.pending) >= n", pending,
        new Page.WaitForFunctionOptions().setTimeout(WAIT_MS));
  }

  /**
   * Waits until the page has settled: its outbox is empty, nothing failed, and every note it shows carries the
   * server's {@code created_at} (so it is the server's record, not only the twin's).
   */
  void awaitSettled() {
    awaitPending(0);
    page.waitForFunction("() => [...document.querySelectorAll('#notes li')].every(li => li.dataset.createdAt !== '')",
        null, new Page.WaitForFunctionOptions().setTimeout(WAIT_MS));
  }

  /** The write ids (idempotency keys) of the pending writes the outbox shows now, in order. */
  // Playwright answers the page's value as untyped lists and maps; the cast names what the page returned.
  @SuppressWarnings("unchecked")
  List<String> pendingWriteIds() {
    return (List<String>) page.evaluate("[...document.querySelectorAll('#outbox li[data-state=pending], "
        + "#outbox li[data-state=sending]')].map(li => li.dataset.writeId)");
  }

  /** The titles the list shows now, in order. */
  // Playwright answers the page's value as untyped lists and maps; the cast names what the page returned.
  @SuppressWarnings("unchecked")
  List<String> titles() {
    return (List<String>) page.evaluate("[...document.querySelectorAll('#notes li')].map(li => li.dataset.title)");
  }

  /** Every view of the list the page rendered, in order: {@code {status, notes: [{id, title, createdAt}]}}. */
  // Playwright answers the page's value as untyped lists and maps; the cast names what the page returned.
  @SuppressWarnings("unchecked")
  List<Map<String, Object>> rendered() {
    return (List<Map<String, Object>>) page.evaluate("window.rendered");
  }

  /** Every connection state the page showed, in order. */
  // Playwright answers the page's value as untyped lists and maps; the cast names what the page returned.
  @SuppressWarnings("unchecked")
  List<String> connections() {
    return (List<String>) page.evaluate("window.connections");
  }
}
