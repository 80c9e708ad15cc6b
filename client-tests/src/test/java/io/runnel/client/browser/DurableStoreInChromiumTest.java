package io.runnel.client.browser;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link JsDurableStore#open()} in Debian's Chromium, through its {@code DurableStore} interface
 * ({@code browser-probe.js}): IndexedDB where the page has it, in call order and shared by the origin's pages;
 * {@code localStorage} with its cap where IndexedDB is missing or fails to open; memory where both are missing.
 */
class DurableStoreInChromiumTest {

  /** Hides IndexedDB from the page, as some private modes and old browsers do. */
  private static final String NO_INDEXED_DB =
      "Object.defineProperty(window, 'indexedDB', {value: undefined, configurable: true});";

  /** Hides localStorage from the page. */
  private static final String NO_LOCAL_STORAGE =
      "Object.defineProperty(window, 'localStorage', {value: undefined, configurable: true});";

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
  void putListAndRemoveGoThroughIndexedDb() {
    Page page = pages.open(pages.context());
    Map<?, ?> out = (Map<?, ?>) page.evaluate("""
        async () => {
          const store = probe.store();
          const put = [store.put('runnel.t.a', '1'), store.put('runnel.t.b', '2'), store.put('runnel.u.c', '3')];
          store.remove('runnel.t.b');
          store.remove('runnel.t.never');
          const listed = await window.listed(store, 'runnel.t.');
          return {put, listed, all: await window.listed(store, ''), raw: await rawIndexedDb(),
            localStorage: localStorage.length};
        }""");
    assertAll(
        () -> assertEquals(List.of(true, true, true), out.get("put"), "each put is accepted"),
        () -> assertEquals(Map.of("runnel.t.a", "1"), out.get("listed"), "list answers its prefix's entries"),
        () -> assertEquals(Map.of("runnel.t.a", "1", "runnel.u.c", "3"), out.get("all"), "the empty prefix: all"),
        () -> assertEquals(Map.of("runnel.t.a", "1", "runnel.u.c", "3"), out.get("raw"),
            "the entries are in IndexedDB's runnel database, object store kv"),
        () -> assertEquals(0, out.get("localStorage"), "nothing went to localStorage"));
  }

  @Test
  void aBurstOfCallsKeepsItsOrderBeforeAndAfterTheDatabaseOpens() {
    Page page = pages.open(pages.context());
    Map<?, ?> out = (Map<?, ?>) page.evaluate("""
        async () => {
          const store = probe.store();
          for (let i = 0; i < 300; i++) {
            store.put('runnel.b.last', String(i));
            store.put('runnel.b.k' + i, 'v' + i);
            if (i % 2 === 1) { store.remove('runnel.b.k' + (i - 1)); }
          }
          const early = await window.listed(store, 'runnel.b.');
          for (let i = 0; i < 300; i++) { store.put('runnel.b.last', 'late' + i); }
          store.remove('runnel.b.k299');
          const late = await window.listed(store, 'runnel.b.');
          return {early: [early['runnel.b.last'], Object.keys(early).length, early['runnel.b.k0'] === undefined,
              early['runnel.b.k299']],
            late: [late['runnel.b.last'], Object.keys(late).length, late['runnel.b.k299'] === undefined]};
        }""");
    assertAll(
        () -> assertEquals(List.of("299", 151, true, "v299"), out.get("early"),
            "made before the database opened: the last put wins, each even key was removed after its put"),
        () -> assertEquals(List.of("late299", 150, true), out.get("late"), "made after it opened: the same"));
  }

  @Test
  void entriesSurviveAReloadEvenWhenWrittenJustBeforeIt() {
    BrowserContext context = pages.context();
    Page page = pages.open(context);
    page.evaluate("""
        async () => {
          const store = probe.store();
          store.put('runnel.r.listed', 'a');
          await window.listed(store, 'runnel.r.');
          store.put('runnel.r.unlisted', 'b');
        }""");
    ProbePages.load(page);
    Object afterReload = page.evaluate("async () => window.listed(probe.store(), 'runnel.r.')");
    page.close();
    Object newPage = pages.open(context).evaluate("async () => window.listed(probe.store(), 'runnel.r.')");
    assertAll(
        () -> assertEquals(Map.of("runnel.r.listed", "a", "runnel.r.unlisted", "b"), afterReload,
            "both entries are there after the reload, the one put just before it too"),
        () -> assertEquals(afterReload, newPage, "and in a new page once the first is closed"));
  }

  @Test
  void twoPagesOfTheOriginSeeEachOthersWrites() {
    BrowserContext context = pages.context();
    Page first = pages.open(context);
    Page second = pages.open(context);
    first.evaluate("async () => { window.store = probe.store(); store.put('runnel.s.from-first', '1');"
        + " await window.listed(store, ''); }");
    Object seenBySecond = second.evaluate("async () => { window.store = probe.store();"
        + " const seen = await window.listed(store, 'runnel.s.'); store.remove('runnel.s.from-first');"
        + " store.put('runnel.s.from-second', '2'); await window.listed(store, ''); return seen; }");
    Object seenByFirst = first.evaluate("async () => window.listed(store, 'runnel.s.')");
    assertAll(
        () -> assertEquals(Map.of("runnel.s.from-first", "1"), seenBySecond, "the second page sees the first's put"),
        () -> assertEquals(Map.of("runnel.s.from-second", "2"), seenByFirst,
            "the first sees the second's remove and put"));
  }

  @Test
  void withoutIndexedDbTheStoreIsLocalStorageCappedAtAMillionCharacters() {
    Page page = pages.open(pages.context(NO_INDEXED_DB));
    Map<?, ?> out = (Map<?, ?>) page.evaluate("""
        async () => {
          const store = probe.store(), x = n => 'x'.repeat(n), steps = [];
          steps.push(store.put('runnel.c.a', x(1000000 - 10)));   // key and value: exactly the cap
          steps.push(store.put('runnel.c.b', ''));                // ten characters more
          steps.push(store.put('runnel.c.a', x(600000)));         // replacing: the old value is not counted
          localStorage.setItem('app.own.key', x(600000));         // the page's own keys are not counted
          steps.push(store.put('runnel.c.b', x(390000)));         // 600,010 + 390,010
          steps.push(store.put('runnel.c.c', x(10000)));          // + 10,010: over
          store.remove('runnel.c.a');
          steps.push(store.put('runnel.c.c', x(10000)));
          const listed = await window.listed(store, 'runnel.c.');
          return {steps, kept: Object.keys(listed).sort(), c: localStorage.getItem('runnel.c.c').length,
            noDatabase: typeof indexedDB};
        }""");
    assertAll(
        () -> assertEquals("undefined", out.get("noDatabase"), "the page has no IndexedDB"),
        () -> assertEquals(List.of(true, false, true, true, false, true), out.get("steps"),
            "a put that takes the runnel. keys past 1,000,000 characters answers false"),
        () -> assertEquals(List.of("runnel.c.b", "runnel.c.c"), out.get("kept"), "what list answers"),
        () -> assertEquals(10000, out.get("c"), "the entry is in localStorage"));
  }

  @Test
  void whenIndexedDbFailsToOpenTheQueuedCallsGoToLocalStorageAndARefusalIsReported() {
    Page page = pages.open(pages.context());
    Map<?, ?> out = (Map<?, ?>) page.evaluate("""
        async () => {
          await new Promise((resolve, reject) => {   // a newer version of the database: version 1 fails to open
            const open = indexedDB.open('runnel', 2);
            open.onsuccess = () => { open.result.close(); resolve(); };
            open.onerror = () => reject(open.error);
          });
          const store = probe.store(), refused = [];
          store.onRefused(key => refused.push(key));
          const put = [store.put('runnel.f.a', 'early'), store.put('runnel.f.big', 'x'.repeat(1000000))];
          const listed = await window.listed(store, 'runnel.f.');
          return {put, refused, listed, local: localStorage.getItem('runnel.f.a')};
        }""");
    assertAll(
        () -> assertEquals(List.of(true, true), out.get("put"), "both calls waited for the database: accepted"),
        () -> assertEquals(List.of("runnel.f.big"), out.get("refused"),
            "the write over the cap, replayed into localStorage, is reported refused"),
        () -> assertEquals(Map.of("runnel.f.a", "early"), out.get("listed")),
        () -> assertEquals("early", out.get("local"), "the queued write is in localStorage"));
  }

  @Test
  void withNeitherTheEntriesLiveInMemoryForThePagesLifetime() {
    BrowserContext context = pages.context(NO_INDEXED_DB, NO_LOCAL_STORAGE);
    Page page = pages.open(context);
    Object listed = page.evaluate("async () => { window.store = probe.store();"
        + " const put = store.put('runnel.m.a', 'x'.repeat(2000000)); store.put('runnel.m.b', '2');"
        + " store.remove('runnel.m.b'); const all = await window.listed(store, 'runnel.m.');"
        + " return [put, Object.keys(all), all['runnel.m.a'].length]; }");
    ProbePages.load(page);
    Object afterReload = page.evaluate("async () => window.listed(probe.store(), 'runnel.m.')");
    assertAll(
        () -> assertEquals(List.of(true, List.of("runnel.m.a"), 2000000), listed, "memory has no cap"),
        () -> assertEquals(Map.of(), afterReload, "a reload loses them"));
  }
}
