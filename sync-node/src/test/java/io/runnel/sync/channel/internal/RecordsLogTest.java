package io.runnel.sync.channel.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.TopicCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A records topic's numbering and replay ring on its own: what a cursor may replay, and the bounds (256 frames per
 * topic, the node's budget, the largest frame).
 */
class RecordsLogTest {

  static final Position LSN = Position.parse("00000016b374d84800000002");

  static List<Op> put(String key, String title) {
    return List.of(new Op.Update(new WireRecord("cards", key, JsonObject.builder().put("title", title).build())));
  }

  @Test
  void aCursorIsReplayedOnlyWithinItsEpochAndWithinTheRing() {
    RecordsLog log = new RecordsLog("board.a", new RecordsLog.Budget(Long.MAX_VALUE));
    for (int i = 1; i <= 300; i++) {
      log.append(LSN, put(Integer.toString(i), "t"), List.of());
    }
    String epoch = log.epoch();
    List<String> lastTwo = log.since(new TopicCursor(epoch, 298));
    assertAll(
        () -> assertEquals(300, log.seq()),
        () -> assertTrue(epoch.matches("[0-9a-f]{16}"), epoch),
        () -> assertEquals(2, lastTwo.size()),
        () -> assertTrue(lastTwo.get(0).contains("\"seq\":299"), lastTwo.get(0)),
        () -> assertEquals(List.of(), log.since(new TopicCursor(epoch, 300)), "nothing missed"),
        () -> assertEquals(256, log.since(new TopicCursor(epoch, 44)).size(), "the ring's floor: 256 frames kept"),
        () -> assertNull(log.since(new TopicCursor(epoch, 43)), "older than the ring: gap"),
        () -> assertNull(log.since(new TopicCursor(epoch, 301)), "a seq never sent: gap"),
        () -> assertNull(log.since(new TopicCursor("0000000000000000", 300)), "another epoch: gap"),
        () -> assertNull(log.since(null), "no cursor: gap"));
    log.restart();
    assertAll(
        () -> assertNotEquals(epoch, log.epoch(), "a restart is a new epoch"),
        () -> assertNull(log.since(new TopicCursor(epoch, 300))),
        () -> assertEquals(List.of(), log.since(new TopicCursor(log.epoch(), 0)), "seq starts again"),
        () -> assertTrue(log.append(LSN, put("1", "t"), List.of()).contains("\"seq\":1,")));
  }

  @Test
  void theNodesBudgetEvictsTheWritingTopicsOldestFramesAndAClearedTopicGivesItsShareBack() {
    RecordsLog.Budget budget = new RecordsLog.Budget(2_000);
    RecordsLog a = new RecordsLog("board.a", budget);
    RecordsLog b = new RecordsLog("board.b", budget);
    for (int i = 1; i <= 20; i++) {
      a.append(LSN, put(Integer.toString(i), "x".repeat(50)), List.of());
    }
    long afterA = budget.used();
    b.append(LSN, put("1", "x".repeat(50)), List.of());
    int aKept = a.since(new TopicCursor(a.epoch(), a.seq() - 1)).size();
    assertAll(
        () -> assertTrue(afterA <= 2_000, "within the budget: " + afterA),
        () -> assertNull(a.since(new TopicCursor(a.epoch(), 0)), "the oldest frames went"),
        () -> assertEquals(1, aKept));
    long beforeClear = budget.used();
    a.clear();
    assertAll(
        () -> assertTrue(budget.used() < beforeClear, "a's frames went back to the budget"),
        () -> assertEquals(List.of(), b.since(new TopicCursor(b.epoch(), 1))));
  }

  @Test
  void aFrameOverTheLimitsIsNotNumberedSoTheTopicGapsInstead() {
    RecordsLog log = new RecordsLog("board.a", new RecordsLog.Budget(Long.MAX_VALUE));
    List<Op> many = new ArrayList<>();
    for (int i = 0; i <= RecordsLog.MAX_FRAME_OPS; i++) {
      many.add(put(Integer.toString(i), "t").get(0));
    }
    assertAll(
        () -> assertNull(log.append(LSN, many, List.of()), "over 1,000 ops"),
        () -> assertNull(log.append(LSN, put("1", "x".repeat(RecordsLog.MAX_FRAME_CHARS)), List.of()),
            "over 256 Ki characters"),
        () -> assertEquals(0, log.seq(), "neither was numbered"),
        () -> assertTrue(log.append(LSN, many.subList(0, RecordsLog.MAX_FRAME_OPS), List.of()) != null,
            "exactly 1,000 ops is one frame"));
  }
}
