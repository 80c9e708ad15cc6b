package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A page outlives its node: it shows offline while the node is down, then reconnects by itself and catches up. */
class NodeRestartTest extends NotesWorldTest {


  @Test
  void aPageShowsOfflineWhileTheNodeIsDownThenReconnectsAndResumes() throws Exception {
    world.insert(NotesWorld.ORG, "ops", "before");
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("ops"));
      tab.awaitTitles("before");
      int statesBefore = tab.connections().size();

      world.stopNode();
      tab.awaitConnection("offline");
      world.insert(NotesWorld.ORG, "ops", "while the node was down");
      String queued = tab.add("written offline");
      tab.awaitPending(1);
      tab.awaitTitles("before", "written offline");

      world.startNode();
      tab.awaitConnection("online");
      tab.awaitSettled();
      tab.awaitTitles("before", "while the node was down", "written offline");
      List<String> states = tab.connections().subList(statesBefore, tab.connections().size());
      assertAll(
          () -> assertEquals(List.of("before", "while the node was down", "written offline"), world.titles("ops"),
              "the write made offline was applied after the restart"),
          () -> assertEquals("online", states.get(states.size() - 1), "online again: " + states),
          () -> assertTrue(states.indexOf("offline") >= 0 && states.indexOf("offline") < states.lastIndexOf("online"),
              "offline, then online by itself: " + states),
          () -> assertEquals(1, tab.answered().size(), "one mutate request reached the node: " + tab.answered()),
          () -> assertEquals(List.of("written offline"), List.of(tab.page.locator("#notes li[data-id='" + queued + "']")
              .getAttribute("data-title")), "the server's record kept the key the browser made"),
          () -> assertEquals(List.of(), tab.errors(), "no page error"));
    }
  }

  @Test
  void aTabShownAgainReconnectsAtOnceInsteadOfWaitingOutItsBackoff() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("shown"));
      tab.page.evaluate("() => window.runnel.connection(s => { window.lastConnection = s; })");
      world.stopNode();
      try {
        // Wait until the next try is over 2.5 s away (the backoff caps at 4 s), so a reconnect sooner is the
        // visible event's doing.
        tab.page.waitForFunction("() => window.lastConnection.state === 'offline'"
            + " && window.lastConnection.reconnectAt - Date.now() > 2500", null,
            new com.microsoft.playwright.Page.WaitForFunctionOptions().setTimeout(60_000));
      } finally {
        world.startNode();
      }
      long shown = System.nanoTime();
      tab.page.evaluate("""
          () => {
            Object.defineProperty(document, 'visibilityState', {get: () => 'visible', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
          }""");
      tab.awaitConnection("online");
      long millis = (System.nanoTime() - shown) / 1_000_000;
      assertTrue(millis < 1_500, "online " + millis + " ms after the tab was shown");
    }
  }
}
