package io.runnel.client.outbox.internal;

import static io.runnel.client.outbox.internal.Page.DIGEST;
import static io.runnel.client.outbox.internal.Page.key;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A stopped outbox (the page's client closed): no timer armed, nothing sent, late answers still settle. */
class OutboxStopTest {

  @Test
  void stopCancelsTheArmedRetryAndNothingIsSentAfterwardsEvenOnline() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.like("p1");
    page.http.open().answer(503, "");
    List<Long> armedBeforeStop = page.clock.armed();
    page.outbox.stop();
    page.clock.advance(120_000);
    page.online(2);
    page.outbox.drain();
    assertAll(
        () -> assertEquals(List.of(1_000L), armedBeforeStop, "a retry timer was armed"),
        () -> assertEquals(List.of(), page.clock.armed(), "stop cancelled it"),
        () -> assertEquals(List.of(key(1)), page.http.keys(), "no retry, no new pass online, no drain"),
        () -> assertEquals(List.of(key(1)), page.pendingIds(), "the entry waits in the store for the next page"),
        () -> assertTrue(page.store.map.containsKey(Page.stored("ada", 0, 1))));
  }

  @Test
  void aCallAfterStopIsStoredAndShownButNotSent() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.outbox.stop();
    Mutation call = page.like("p1");
    assertAll(
        () -> assertEquals(List.of(), page.http.calls, "nothing sent"),
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}"), page.writes.log, "the twin ran"),
        () -> assertTrue(page.store.map.containsKey(Page.stored("ada", 0, 1)), "stored for the next page"),
        () -> assertNull(call.outcome(), "pending"));
  }

  @Test
  void anAnswerArrivingAfterStopSettlesItsEntryButSendsNothingNew() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    Mutation first = page.like("p1");
    page.like("p2");
    RecordingHttp.Call inFlight = page.http.open();
    page.outbox.stop();
    boolean sendingAfterStop = page.state().pending().get(0).sending();
    inFlight.ok(DIGEST);
    page.clock.advance(120_000);
    assertAll(
        () -> assertEquals(false, sendingAfterStop, "no request of a live pass is out any more"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, first.outcome(), "the caller hears the answer"),
        () -> assertTrue(page.writes.log.contains("answered " + key(1) + " " + DIGEST + " " + Page.LSN),
            "the overlay is told, so it settles"),
        () -> assertEquals(List.of(key(2)), page.pendingIds(), "the first left the queue"),
        () -> assertEquals(List.of(Page.stored("ada", 1, 2)), List.copyOf(page.store.map.keySet()),
            "and the store"),
        () -> assertEquals(List.of(key(1)), page.http.keys(), "the second is not sent"),
        () -> assertEquals(0, page.beats, "no beat is asked of a closed connection"));
  }

  @Test
  void aRefusalOrA401ArrivingAfterStopFailsOrKeepsItsEntryAndStartsNothing() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    Mutation refused = page.like("p1");
    RecordingHttp.Call first = page.http.open();
    page.outbox.stop();
    first.refuse(409, "X_POST_NOT_FOUND");
    Page other = new Page().signedIn("bob");
    other.online(1);
    other.like("b1");
    RecordingHttp.Call unauthorized = other.http.open();
    other.outbox.stop();
    unauthorized.answer(401, "");
    assertAll(
        () -> assertInstanceOf(MutationOutcome.Failed.class, refused.outcome(), "the refusal fails the call"),
        () -> assertEquals(List.of(key(1)), page.failedIds()),
        () -> assertEquals(1, other.http.calls.size(), "a 401 after stop asks no fresh token and resends nothing"),
        () -> assertEquals(0, other.credentials.refreshes),
        () -> assertEquals(List.of(), other.clock.armed(), "no retry armed"));
  }
}
