package io.runnel.client.browser;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link JsTabs#open()} and {@link JsPageEvents} in Debian's Chromium, through their Java interfaces
 * ({@code browser-probe.js}): the pages of one context are the tabs of one origin. Whether a page waits for a lock
 * is read from {@code navigator.locks.query()}, so no test waits for something not to happen.
 */
class TabsInChromiumTest {

  private static final String LOCK = "runnel.test-lock";

  /** Asks for the lock and records when it is granted: {@code window.granted}. */
  private static final String LEAD = "() => { window.granted = []; window.tabs = window.tabs || probe.tabs();"
      + " window.lease = tabs.lead('" + LOCK + "', name => granted.push(name)); return granted.length; }";

  /** How many pages hold the lock and how many wait for it, as the browser's lock manager sees them. */
  private static final String LOCKS = "async () => { const s = await navigator.locks.query();"
      + " const n = l => l.filter(x => x.name === '" + LOCK + "').length; return [n(s.held), n(s.pending)]; }";

  /**
   * Waits until {@code n} requests of the origin's pages wait for the lock, polling the lock manager (whose answer is
   * a promise, which {@code waitForFunction} would take as true), for 30 s at most.
   */
  private static void untilWaiting(Page page, int n) {
    page.evaluate("async n => { for (let i = 0; i < 3000; i++) { if ((await (" + LOCKS + ")())[1] === n) { return; }"
        + " await new Promise(r => setTimeout(r, 10)); } throw new Error('never ' + n + ' waiting'); }", n);
  }

  private static ProbePages pages;

  @BeforeAll
  static void launch() {
    pages = new ProbePages();
  }

  @AfterAll
  static void quit() {
    pages.close();
  }

  @AfterEach
  void noPageFailed() {
    assertEquals(List.of(), pages.pageErrors(), "no uncaught error in any page");
  }

  @Test
  void oneTabHoldsTheLockAndItPassesOnWhenTheHolderClosesOrReleases() {
    BrowserContext context = pages.context();
    Page first = pages.open(context);
    Page second = pages.open(context);
    Page third = pages.open(context);
    Page fourth = pages.open(context);
    Object grantedInLead = first.evaluate(LEAD);
    first.waitForFunction("() => granted.length === 1");
    second.evaluate(LEAD);
    untilWaiting(second, 1);
    Object secondWhileFirstHolds = second.evaluate("() => granted.length");
    first.close();
    second.waitForFunction("() => granted.length === 1");
    third.evaluate(LEAD);
    fourth.evaluate(LEAD);
    untilWaiting(third, 2);
    third.evaluate("() => lease.release()");
    untilWaiting(third, 1);
    second.evaluate("() => { lease.release(); lease.release(); }");
    fourth.waitForFunction("() => granted.length === 1");
    Object locks = fourth.evaluate(LOCKS);
    assertAll(
        () -> assertEquals(0, grantedInLead, "a lock is granted on a later turn, never inside lead"),
        () -> assertEquals(0, secondWhileFirstHolds, "the second page waits while the first holds it"),
        () -> assertEquals(0, third.evaluate("() => granted.length"), "a request withdrawn is never granted"),
        () -> assertEquals(List.of(1, 0), locks, "the fourth holds it, nobody waits"),
        () -> assertEquals(List.of("runnel.test-lock"), fourth.evaluate("() => granted"), "granted runs once"));
  }

  @Test
  void aPostReachesTheOtherPagesNotTheSender() {
    BrowserContext context = pages.context();
    Page first = pages.open(context);
    Page second = pages.open(context);
    String listen = "() => { window.heard = []; window.tabs = probe.tabs(); tabs.listen(t => heard.push(t)); }";
    first.evaluate(listen);
    second.evaluate(listen);
    first.evaluate("() => tabs.post('from first')");
    second.waitForFunction("() => heard.length === 1");
    second.evaluate("() => tabs.post('from second')");
    first.waitForFunction("() => heard.length === 1");
    assertAll(
        () -> assertEquals(List.of("from first"), second.evaluate("() => heard")),
        () -> assertEquals(List.of("from second"), first.evaluate("() => heard"),
            "the first page heard the second's post and never its own"));
  }

  @Test
  void withoutWebLocksEveryTabIsAloneAndHoldsTheLockAtOnce() {
    BrowserContext context = pages.context(
        "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined, configurable: true});");
    Page first = pages.open(context);
    Page second = pages.open(context);
    assertAll(
        () -> assertEquals(1, first.evaluate(LEAD), "granted inside lead, as Tabs.alone() does"),
        () -> assertEquals(1, second.evaluate(LEAD), "and in the second page too"));
  }

  @Test
  void thePageTellsWhenTheNetworkGoesAndComesBack() {
    BrowserContext context = pages.context();
    Page page = pages.open(context);
    page.evaluate("() => { window.events = []; probe.pageEvents(e => events.push(e)); }");
    context.setOffline(true);
    page.waitForFunction("() => events.length === 1");
    context.setOffline(false);
    page.waitForFunction("() => events.length === 2");
    assertEquals(List.of("offline", "online"), page.evaluate("() => events"));
  }

  /**
   * Headless Chromium shows every page, so the hidden state is emulated here: {@code document.visibilityState}
   * answers what the test sets, and the test fires {@code visibilitychange} as the browser does.
   */
  @Test
  void aTabShownAgainIsToldButHidingItIsNot() {
    Page page = pages.open(pages.context());
    Object events = page.evaluate("""
        () => {
          let state = 'visible';
          Object.defineProperty(document, 'visibilityState', {get: () => state, configurable: true});
          window.events = [];
          probe.pageEvents(e => events.push(e));
          state = 'hidden';
          document.dispatchEvent(new Event('visibilitychange'));
          state = 'visible';
          document.dispatchEvent(new Event('visibilitychange'));
          return events;
        }""");
    assertEquals(List.of("visible"), events);
  }
}
