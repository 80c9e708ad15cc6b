package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.BrowserContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code record(type, key, onChange)} in Chromium: a record the page does not hold yet, one it writes
 * optimistically, one another writer changes and one another writer deletes.
 */
class RecordTest extends NotesWorldTest {


  /** Every title record(notes, key) showed, in order; null while the page held no such record. */
  // Playwright answers the page's array as a List of Object.
  @SuppressWarnings("unchecked")
  private static List<Object> seen(NotesTab tab, String key) {
    return (List<Object>) tab.page.evaluate("k => window.seen[k]", key);
  }

  private static void watch(NotesTab tab, String key) {
    tab.page.evaluate("k => { window.seen = window.seen || {}; window.seen[k] = [];"
        + " window.runnel.record('notes', k, ({ record, error }) => window.seen[k].push(error ? 'error ' + error.code"
        + " : record === null ? null : record.title)); }", key);
  }

  /**
   * {@code seen} with repeats in a row collapsed: record() is heard whenever the row changes, and the twin's row and
   * its echo can share a title while another column differs (the echo's created_at is the server's), which is no
   * flicker of the title.
   */
  private static List<Object> titles(List<Object> seen) {
    List<Object> out = new ArrayList<>();
    for (Object title : seen) {
      if (out.isEmpty() || !Objects.equals(out.get(out.size() - 1), title)) {
        out.add(title);
      }
    }
    return out;
  }

  private static void awaitLast(NotesTab tab, String key, String title) {
    try {
      tab.page.waitForFunction("([k, t]) => { const s = window.seen[k];"
          + " return s.length > 0 && s[s.length - 1] === (t ?? null); }",
        Arrays.asList(key, title));
    } catch (RuntimeException e) {
      throw new AssertionError("record " + key + " showed " + seen(tab, key) + ", list " + tab.titles(), e);
    }
  }

  @Test
  // Playwright answers a page's array as a List of Object; the casts below name what the page returned.
  @SuppressWarnings("unchecked")
  void aRecordAppearsIsChangedOptimisticallyAndByAnotherWriterAndGoesAway() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("rec"));
      UUID id = UUID.randomUUID();
      String key = id.toString();
      watch(tab, key);
      try (Connection c = world.db.connect(); PreparedStatement s = c.prepareStatement(
          "INSERT INTO notes (id, org_id, list_id, title) VALUES (?, ?, ?, ?)")) {
        s.setObject(1, id);
        s.setString(2, NotesWorld.ORG);
        s.setString(3, "rec");
        s.setString(4, "appeared");
        s.executeUpdate();
      }
      awaitLast(tab, key, "appeared");
      tab.page.evaluate("k => window.putNote(k, 'renamed here')", key);
      List<Object> rightAfter = seen(tab, key);
      tab.awaitSettled();
      try (Connection c = world.db.connect();
          PreparedStatement s = c.prepareStatement("UPDATE notes SET title = 'renamed there' WHERE id = ?")) {
        s.setObject(1, id);
        s.executeUpdate();
      }
      awaitLast(tab, key, "renamed there");
      try (Connection c = world.db.connect();
          PreparedStatement s = c.prepareStatement("DELETE FROM notes WHERE id = ?")) {
        s.setObject(1, id);
        s.executeUpdate();
      }
      awaitLast(tab, key, null);
      watch(tab, "nope");
      List<Object> unknown = (List<Object>) tab.page.evaluate("() => { const out = [];"
          + " window.runnel.record('no_such_type', 'k', v => out.push(v.error ? v.error.code : 'no error'));"
          + " return out; }");
      assertAll(
          () -> assertEquals("renamed here", rightAfter.get(rightAfter.size() - 1), "the twin showed at once"),
          () -> assertEquals(Arrays.asList(null, "appeared", "renamed here", "renamed there", null),
              titles(seen(tab, key)), "no title flickered back: " + seen(tab, key)),
          () -> assertEquals(Arrays.asList((Object) null), seen(tab, "nope")),
          () -> assertEquals(1, unknown.size(), "an unknown type answers once, with an error: " + unknown),
          () -> assertEquals(List.of(), tab.errors()));
    }
  }
}
