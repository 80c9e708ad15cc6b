package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Page;
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

  /**
   * The page's own clock decides: the tab is shown while its next try is still ahead, and it is online before that
   * try was due. (A bound on the test's clock would count the node's start and Playwright's polling too.)
   */
  @Test
  void aTabShownAgainReconnectsAtOnceInsteadOfWaitingOutItsBackoff() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("shown"));
      tab.page.evaluate("() => window.runnel.connection(s => { window.lastConnection = s;"
          + " if (s.state === 'online') window.onlineAt = Date.now(); })");
      double reconnectAt = Double.NaN;
      for (int attempt = 1; Double.isNaN(reconnectAt); attempt++) {
        world.stopNode();
        try {
          // Wait until the next try is over 2.5 s away (the backoff caps at 4 s), so a reconnect sooner is the
          // visible event's doing.
          tab.page.waitForFunction("() => window.lastConnection.state === 'offline'"
              + " && window.lastConnection.reconnectAt - Date.now() > 2500", null,
              new Page.WaitForFunctionOptions().setTimeout(60_000));
        } finally {
          world.startNode();
        }
        // The node's start may have outlasted the wait: then the page reconnects by itself and the test goes again.
        Number ahead = (Number) tab.page.evaluate("() => window.lastConnection.state === 'offline'"
            + " && window.lastConnection.reconnectAt - Date.now() > 500 ? window.lastConnection.reconnectAt : -1");
        if (ahead.doubleValue() > 0) {
          reconnectAt = ahead.doubleValue();
        } else {
          assertTrue(attempt < 3, "the node took longer to start than the page's backoff, " + attempt + " times");
          tab.awaitConnection("online");
        }
      }
      tab.page.evaluate("""
          () => {
            Object.defineProperty(document, 'visibilityState', {get: () => 'visible', configurable: true});
            document.dispatchEvent(new Event('visibilitychange'));
          }""");
      tab.awaitConnection("online");
      double onlineAt = ((Number) tab.page.evaluate("() => window.onlineAt")).doubleValue();
      assertTrue(onlineAt < reconnectAt, "online at " + onlineAt + ", its backoff's try was due at " + reconnectAt);
    }
  }
}
