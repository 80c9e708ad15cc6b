package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two tabs of one principal share one outbox (one browser context: one storage, one set of Web Locks): writes queued
 * in both while the network fails are applied once each, in the order they were made, and one tab drains them.
 */
class TwoTabsTest extends NotesWorldTest {


  @Test
  void writesQueuedInTwoTabsAreAppliedOnceEachInOrderByOneDrainingTab() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab a = NotesTab.open(context, world.pageUrl("shared"));
      NotesTab b = NotesTab.open(context, world.pageUrl("shared"));
      a.abortWrites();
      b.abortWrites();
      a.add("from tab a");
      a.awaitTitles("from tab a");
      a.awaitPending(1);
      b.add("from tab b");
      b.awaitPendingAtLeast(1);
      // Each tab shows its own write at once; whether a tab shows the other's before it is applied is not required.
      b.page.waitForFunction("() => [...document.querySelectorAll('#notes li')].some(li => li.dataset.title === "
          + "'from tab b')");
      List<String> queued = new ArrayList<>(a.pendingWriteIds());
      for (String w : b.pendingWriteIds()) {
        if (queued.indexOf(w) < 0) {
          queued.add(w);
        }
      }
      assertEquals(2, queued.size(), "two writes queued: " + queued);

      a.letWritesThrough();
      b.letWritesThrough();
      a.awaitSettled();
      b.awaitSettled();
      a.awaitTitles("from tab a", "from tab b");
      b.awaitTitles("from tab a", "from tab b");
      List<String> answered = new ArrayList<>(a.answered());
      answered.addAll(b.answered());
      assertAll(
          () -> assertEquals(List.of("from tab a", "from tab b"), world.titles("shared"),
              "both writes applied once, in the order they were made (by created_at)"),
          () -> assertTrue(a.answered().isEmpty() || b.answered().isEmpty(),
              "one tab drained the outbox: a sent " + a.answered() + ", b sent " + b.answered()),
          () -> assertEquals(queued, answered, "one request per write, in queue order, under its queued key"),
          () -> assertEquals(List.of(), a.errors(), "no page error in tab a"),
          () -> assertEquals(List.of(), b.errors(), "no page error in tab b"));
    }
  }
}
