package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.bus.Subjects;
import io.runnel.bus.TransportUnavailableException;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Entity;
import io.runnel.wire.ErrorCode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The record publisher on the in-process bus: an app's rows go out as {@code publisher} changes of their own
 * producer, in order, with a seq a consumer can check; a batch is refused whole, before anything is sent, for an
 * entity the publisher does not publish or a row without its key; a batch the bus did not take leaves a hole.
 */
class RecordPublisherTest {

  static final EntityRef ROOMS = EntityRef.of("rooms").key("id").columns(c -> c.int8("id").text("name"));
  static final EntityRef MEMBERS = EntityRef.of("members").key("room_id", "user_id")
      .columns(c -> c.int8("room_id").text("user_id").bool("admin"));
  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int8("id").text("body"));
  static final Entity ROOM_TABLE = Entity.of(ROOMS).table("chat.rooms");
  static final Entity MEMBER_TABLE = Entity.of(MEMBERS).table("chat.members");

  private final InProcessTransport inProcess = InProcessTransport.create();
  private final RefusingTransport bus = new RefusingTransport(inProcess);
  private final BlockingQueue<Object[]> received = new LinkedBlockingQueue<>();
  private final RecordPublisher publisher = RecordPublisher.builder().transport(bus).entity(ROOM_TABLE)
      .entity(MEMBER_TABLE).clock(Clock.fixed(Instant.ofEpochMilli(1_732_880_000_000L), ZoneOffset.UTC)).build();

  RecordPublisherTest() {
    Map<String, EntityRef> byName = Map.of("rooms", ROOMS, "members", MEMBERS);
    inProcess.subscribe(Subjects.ALL_CHANGES, m -> received.add(new Object[] {m.subject(),
        BusEnvelope.decode(m.payload(), byName::get)}));
  }

  @AfterEach
  void close() {
    bus.close();
  }

  private ChangeEvent next(String subject) throws InterruptedException {
    Object[] m = received.poll(10, TimeUnit.SECONDS);
    assertTrue(m != null, "a message arrives");
    assertEquals(subject, m[0]);
    return (ChangeEvent) m[1];
  }

  static Row room(long id, String name) {
    return Row.empty().with("id", id).with("name", name);
  }

  @Test
  void aBatchGoesOutInOrderAsPublisherChangesOfItsOwnProducerWithNoWalPosition() throws Exception {
    publisher.publish(List.of(
        RecordPublisher.Change.insert(ROOMS, room(1, "lobby")),
        RecordPublisher.Change.update(MEMBERS, Row.empty().with("room_id", "1").with("user_id", "ada")
            .with("admin", true)),
        RecordPublisher.Change.delete(ROOMS, room(2, "ignored: only the key goes"))));
    ChangeEvent insert = next("runnel.changes.chat.rooms");
    ChangeEvent update = next("runnel.changes.chat.members");
    ChangeEvent delete = next("runnel.changes.chat.rooms");
    assertAll(
        () -> assertEquals(ChangeEvent.Source.PUBLISHER, insert.source()),
        () -> assertEquals(publisher.producer(), insert.producer(), "its own producer"),
        () -> assertEquals(List.of(1L, 2L, 3L), List.of(insert.seq(), update.seq(), delete.seq())),
        () -> assertEquals("1", insert.key()),
        () -> assertEquals(room(1, "lobby"), insert.row()),
        () -> assertEquals("[\"1\",\"ada\"]", update.key(),
            "a composite key, spelled as PROTOCOL.md says (an int8 as a string)"),
        () -> assertEquals(1L, update.row().get("room_id"), "the value coerced to its column's type"),
        () -> assertEquals(ChangeOp.DELETE, delete.op()),
        () -> assertNull(delete.row()),
        () -> assertEquals(Row.empty().with("id", 2L), delete.old(), "the deleted row's key columns only"),
        () -> assertEquals("000000000000000000000001", insert.lsn(), "no WAL position: the place in the batch"),
        () -> assertEquals("000000000000000000000003", delete.lsn()),
        () -> assertEquals(List.of(false, false, true), List.of(insert.last(), update.last(), delete.last())),
        () -> assertEquals(1_732_880_000_000L, insert.commitTime()),
        () -> assertEquals("chat.rooms", insert.table()),
        () -> assertEquals("rooms", insert.entity()));
  }

  @Test
  void anEntityThePublisherDoesNotPublishIsRefusedAndNothingOfTheBatchIsSent() {
    PublishRefusedException refused = assertThrows(PublishRefusedException.class, () -> publisher.publish(List.of(
        RecordPublisher.Change.insert(ROOMS, room(1, "lobby")),
        RecordPublisher.Change.insert(NOTES, Row.empty().with("id", 7L).with("body", "x")))));
    EntityRef sameNameOtherRef = EntityRef.of("rooms").key("id").columns(c -> c.int8("id").text("name"));
    PublishRefusedException impostor = assertThrows(PublishRefusedException.class,
        () -> publisher.publish(List.of(RecordPublisher.Change.insert(sameNameOtherRef, room(1, "x")))));
    assertAll(
        () -> assertEquals(ErrorCode.X_PUBLISH_REFUSED, refused.code()),
        () -> assertTrue(refused.cause().contains("Change 1") && refused.cause().contains("'notes'"),
            refused.cause()),
        () -> assertTrue(refused.fix().contains("rooms, members") || refused.fix().contains("members, rooms"),
            refused.fix()),
        () -> assertEquals(ErrorCode.X_PUBLISH_REFUSED, impostor.code(), "an entity is the publisher's own ref"),
        () -> assertTrue(received.isEmpty(), "nothing of either batch was sent"));
  }

  @Test
  void aRowWithoutItsWholeKeyOrWithAStrangeColumnOrABadValueIsRefusedBeforeAnythingIsSent() throws Exception {
    List<PublishRefusedException> refusals = List.of(
        refused(RecordPublisher.Change.insert(MEMBERS, Row.empty().with("room_id", 1L).with("admin", false))),
        refused(RecordPublisher.Change.insert(MEMBERS, Row.empty().with("room_id", 1L).with("user_id", null))),
        refused(RecordPublisher.Change.delete(ROOMS, Row.empty().with("name", "no key"))),
        refused(RecordPublisher.Change.insert(ROOMS, room(1, "x").with("owner", "ada"))),
        refused(RecordPublisher.Change.insert(ROOMS, Row.empty().with("id", "not a number").with("name", "x"))));
    publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, room(5, "after the refusals"))));
    ChangeEvent after = next("runnel.changes.chat.rooms");
    assertAll(
        () -> assertTrue(refusals.get(0).cause().contains("key column 'user_id'"), refusals.get(0).cause()),
        () -> assertTrue(refusals.get(1).cause().contains("key column 'user_id'"), refusals.get(1).cause()),
        () -> assertTrue(refusals.get(2).cause().contains("key column 'id'"), refusals.get(2).cause()),
        () -> assertTrue(refusals.get(3).cause().contains("'owner'"), refusals.get(3).cause()),
        () -> assertTrue(refusals.get(4).cause().contains("'id'"), refusals.get(4).cause()),
        () -> assertEquals(1L, after.seq(), "refused batches took no seq: the next change is the first"),
        () -> assertEquals(0, received.size(), "only the accepted change arrived"));
  }

  private PublishRefusedException refused(RecordPublisher.Change bad) {
    PublishRefusedException e = assertThrows(PublishRefusedException.class,
        () -> publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, room(9, "first, fine")), bad)));
    assertEquals(ErrorCode.X_PUBLISH_REFUSED, e.code());
    return e;
  }

  @Test
  void aBatchTheBusDidNotTakeLeavesAHoleInTheSeqThatConsumersSee() throws Exception {
    publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, room(1, "a"))));
    bus.refusing.set(true);
    TransportUnavailableException down = assertThrows(TransportUnavailableException.class,
        () -> publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, room(2, "b")),
            RecordPublisher.Change.insert(ROOMS, room(3, "c")))));
    bus.refusing.set(false);
    publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, room(4, "d"))));
    ChangeEvent first = next("runnel.changes.chat.rooms");
    ChangeEvent after = next("runnel.changes.chat.rooms");
    assertAll(
        () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, down.code()),
        () -> assertEquals(1L, first.seq()),
        () -> assertEquals("4", after.key()),
        () -> assertEquals(4L, after.seq(), "seq 2 and 3 went with the lost batch: a consumer sees 1 then 4"));
  }
}
