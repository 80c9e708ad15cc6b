package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.BrowserContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The outbox outlives the page: writes queued while the network fails survive a reload and are applied once. */
class OutboxReloadTest extends NotesWorldTest {


  @Test
  void twoWritesQueuedBeforeAReloadAreAppliedExactlyOnceAfterIt() throws Exception {
    try (BrowserContext context = world.newContext()) {
      NotesTab tab = NotesTab.open(context, world.pageUrl("trip"));
      tab.abortWrites();
      tab.add("passport");
      tab.add("tickets");
      tab.awaitTitles("passport", "tickets");
      tab.awaitPending(2);
      List<String> queued = tab.pendingWriteIds();

      tab.reload();
      tab.awaitTitles("passport", "tickets");
      tab.awaitPending(2);
      assertEquals(List.of(), world.titles("trip"), "nothing reached the node while its requests were aborted");

      tab.letWritesThrough();
      tab.awaitSettled();
      tab.awaitTitles("passport", "tickets");
      assertAll(
          () -> assertEquals(List.of("passport", "tickets"), world.titles("trip"),
              "both writes applied once, in the order they were made"),
          () -> assertEquals(queued, tab.answered(),
              "the node answered exactly one request per queued write, under the key it was queued with"),
          () -> assertEquals(List.of(), tab.errors(), "no page error"));
    }
  }
}
