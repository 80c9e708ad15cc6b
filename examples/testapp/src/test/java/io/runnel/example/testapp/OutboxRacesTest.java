package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import com.microsoft.playwright.options.WaitUntilState;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The outbox where it is easiest to lose or double a write: the draining tab closed after the node applied its
 * request, a reload right after a write, and a write queued in another tab while the draining one waits out its
 * backoff.
 */
class OutboxRacesTest extends NotesWorldTest {


  @Test
  void aDrainingTabClosedAfterTheNodeAppliedItsRequestIsTakenOverAndEveryWriteIsAppliedOnce() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab a = NotesTab.open(context, world.pageUrl("takeover"));
      NotesTab b = NotesTab.open(context, world.pageUrl("takeover"));
      NotesTab c = NotesTab.open(context, world.pageUrl("takeover"));
      a.loseAnswers();
      b.add("from b");
      b.page.waitForCondition(() -> a.lost() == 1);
      c.add("from c");
      c.awaitPendingAtLeast(1);
      List<String> appliedBeforeClose = world.titles("takeover");

      a.page.close();
      b.awaitSettled();
      c.awaitSettled();
      b.awaitTitles("from b", "from c");
      c.awaitTitles("from b", "from c");
      assertAll(
          () -> assertEquals(List.of("from b"), appliedBeforeClose,
              "the first tab drained: the node applied b's write, and its answer never came back"),
          () -> assertEquals(List.of("from b", "from c"), world.titles("takeover"),
              "the tab that took over resent b's write under its key, and it was applied once"),
          () -> assertEquals(List.of(), b.errors()),
          () -> assertEquals(List.of(), c.errors()));
    }
  }

  @Test
  void aWriteFollowedAtOnceByAReloadIsKept() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("reload"));
      tab.abortWrites();
      try {
        tab.page.evaluate("() => { window.addNote('kept'); location.reload(); }");
      } catch (PlaywrightException navigated) {
        // The reload may destroy the evaluation's context before it answers.
      }
      tab.page.waitForLoadState();
      tab.awaitOnlineAndReady();
      tab.awaitPending(1);
      tab.letWritesThrough();
      tab.awaitSettled();
      assertEquals(List.of("kept"), world.titles("reload"));
    }
  }

  @Test
  void aWriteMadeAsThePageLoadsFollowedAtOnceByAReloadIsKept() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("early"));
      tab.abortWrites();
      tab.page.navigate(world.pageUrl("early"), new Page.NavigateOptions().setWaitUntil(
          WaitUntilState.COMMIT));
      tab.page.waitForFunction("() => typeof window.addNote === 'function'");
      try {
        tab.page.evaluate("() => { window.addNote('early'); location.reload(); }");
      } catch (PlaywrightException navigated) {
        // The reload may destroy the evaluation's context before it answers.
      }
      tab.page.waitForLoadState();
      tab.awaitOnlineAndReady();
      tab.awaitPending(1);
      tab.letWritesThrough();
      tab.awaitSettled();
      assertEquals(List.of("early"), world.titles("early"));
    }
  }

  @Test
  void aWriteQueuedInAnotherTabWhileTheDrainingTabBacksOffIsSentAsSoonAsTheNetworkReturns() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab a = NotesTab.open(context, world.pageUrl("backoff"));
      NotesTab b = NotesTab.open(context, world.pageUrl("backoff"));
      AtomicInteger failedTries = new AtomicInteger();
      a.page.onRequestFailed(r -> {
        if (r.url().contains("/v1/mutate/")) {
          failedTries.incrementAndGet();
        }
      });
      context.setOffline(true);
      a.add("first");
      a.awaitPending(1);
      // Four failed tries (after backoffs of 1, 2 and 4 s): the draining tab now waits 8 s before its next one.
      a.page.waitForCondition(() -> failedTries.get() >= 4, new Page.WaitForConditionOptions().setTimeout(20_000));
      b.add("second");
      b.awaitPendingAtLeast(1);
      a.awaitPendingAtLeast(2);
      long back = System.nanoTime();
      context.setOffline(false);
      b.awaitPending(0);
      long millis = (System.nanoTime() - back) / 1_000_000;
      b.awaitSettled();
      assertAll(
          () -> assertTrue(millis < 6_000, "sent " + millis + " ms after the network returned, not after the draining"
              + " tab's 8 s backoff"),
          () -> assertEquals(List.of("first", "second"), world.titles("backoff")));
    }
  }
}
