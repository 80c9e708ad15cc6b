package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A page outlives its node: it shows offline while the node is down, then reconnects by itself and catches up. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeRestartTest {

  NotesWorld world;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    world = new NotesWorld(db);
  }

  @AfterAll
  void stop() {
    world.close();
  }

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
}
