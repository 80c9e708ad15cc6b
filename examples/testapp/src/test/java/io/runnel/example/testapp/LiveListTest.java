package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.BrowserContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live list in Chromium follows what other writers commit straight into PostgreSQL. */
class LiveListTest extends NotesWorldTest {


  @Test
  void aNoteAnotherWriterCommitsShowsInTheOpenListAndOtherOrgsAndListsNeverDo() throws Exception {
    world.insert(NotesWorld.ORG, "groceries", "already there");
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("groceries"));
      tab.awaitTitles("already there");
      // Committed in this order: the list's patches leave in commit order, so once "milk" shows, the two before it
      // have been decided too.
      world.insert("globex", "groceries", "another org's note");
      world.insert(NotesWorld.ORG, "chores", "another list's note");
      world.insert(NotesWorld.ORG, "groceries", "milk");
      tab.awaitTitles("already there", "milk");
      world.insert(NotesWorld.ORG, "groceries", "eggs");
      tab.awaitTitles("already there", "milk", "eggs");
      List<String> seen = tab.rendered().stream()
          .flatMap(view -> ((List<?>) view.get("notes")).stream())
          .map(n -> (String) ((Map<?, ?>) n).get("title")).distinct().toList();
      assertAll(
          () -> assertEquals(List.of("already there", "milk", "eggs"), seen,
              "every title the page ever rendered: never another org's or another list's note"),
          () -> assertEquals(List.of(), tab.errors(), "no page error"));
    }
  }
}
