package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.BrowserContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A write shows at once through its local twin, before the node has it, and settles on its echo: the page records
 * every view it rendered, and no value it had replaced comes back in between.
 */
class OptimisticWriteTest extends NotesWorldTest {


  @Test
  void aRenameShowsAtOnceAndSettlesOnItsEchoWithoutTheOldTitleFlickeringBack() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("work"));
      String id = tab.add("one");
      tab.awaitTitles("one");
      tab.awaitSettled();

      tab.holdWrites();
      String shown = tab.renameAndRead(id, "two");
      assertEquals("two", shown, "the twin renamed the note in the same task as the call, before any answer");
      tab.awaitPending(1);
      assertEquals(List.of("one"), world.titles("work"), "the node has not seen the rename yet: it is held");
      tab.letWritesThrough();
      tab.awaitSettled();
      // A later commit by another writer: patches leave in commit order, so once it shows the rename's echo has
      // been applied too, and every view up to the echo has been recorded.
      world.insert(NotesWorld.ORG, "work", "later");
      tab.awaitTitles("two", "later");
      tab.awaitSettled();

      List<String> titlesOfTheNote = titlesOf(tab.rendered(), id);
      int firstTwo = titlesOfTheNote.indexOf("two");
      assertAll(
          () -> assertEquals(List.of("two", "later"), world.titles("work"), "the table holds the rename"),
          () -> assertTrue(firstTwo > 0, "the note showed 'one', then 'two': " + titlesOfTheNote),
          () -> assertEquals(List.of(), titlesOfTheNote.subList(0, firstTwo).stream()
              .filter(t -> !"one".equals(t)).toList(), "before the rename only 'one' showed: " + titlesOfTheNote),
          () -> assertEquals(List.of(), titlesOfTheNote.subList(firstTwo, titlesOfTheNote.size()).stream()
              .filter(t -> !"two".equals(t)).toList(), "once 'two' showed, it never went back: " + titlesOfTheNote),
          () -> assertTrue(noViewShowsANoteTwice(tab.rendered()),
              "the echo lands on the twin's record, never beside it"),
          () -> assertEquals(List.of(), tab.errors(), "no page error"));
    }
  }

  /** The title note {@code id} had in each rendered view that held it, in order. */
  static List<String> titlesOf(List<Map<String, Object>> views, String id) {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> view : views) {
      for (Object n : (List<?>) view.get("notes")) {
        Map<?, ?> note = (Map<?, ?>) n;
        if (id.equals(note.get("id"))) {
          out.add((String) note.get("title"));
        }
      }
    }
    return out;
  }

  static boolean noViewShowsANoteTwice(List<Map<String, Object>> views) {
    for (Map<String, Object> view : views) {
      List<?> notes = (List<?>) view.get("notes");
      if (notes.stream().map(n -> ((Map<?, ?>) n).get("id")).distinct().count() != notes.size()) {
        return false;
      }
    }
    return true;
  }
}
