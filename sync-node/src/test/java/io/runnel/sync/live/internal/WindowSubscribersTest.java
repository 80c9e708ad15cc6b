package io.runnel.sync.live.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Policy;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A transaction's patches to a window's subscribers: subscribers that see the same change get the very same ops and
 * writes lists (unmodifiable, so a frame keeps them as they are), which lets the frame writer encode a patch once
 * and splice each sid in; a subscriber whose row rule hides the change gets nothing.
 */
class WindowSubscribersTest {

  static final EntityRef ITEMS = EntityRef.of("items").key("id").columns(c -> c.int4("id").text("owner"));

  /** Records each patch's arguments. */
  static final class Port implements LiveSubscriber {
    final List<Object[]> patches = new ArrayList<>();

    @Override
    public void snapshot(String sid, List<WireRecord> records, Cursor cursor) {
    }

    @Override
    public void patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) {
      patches.add(new Object[] {sid, ops, writes, cursor});
    }

    @Override
    public void refuse(String sid, RunnelException error) {
    }
  }

  @Test
  void subscribersThatSeeTheSameChangeShareItsOpsAndWrites() {
    WindowSubscribers subs = new WindowSubscribers(ITEMS, new LiveCounters());
    Policy.RowRule own = (actor, row) -> actor.id().equals(row.get("owner"));
    Port a = new Port();
    Port b = new Port();
    Port c = new Port();
    subs.add(new WindowSubscribers.Sub("s1", a, Actor.user("ada").inOrg("acme"), null));
    subs.add(new WindowSubscribers.Sub("s2", b, Actor.user("bob").inOrg("acme"), null));
    subs.add(new WindowSubscribers.Sub("s3", c, Actor.user("cy").inOrg("acme"), own));
    Row row = Row.of(Map.of("id", 1, "owner", "ada"));
    Cursor cursor = new Cursor("items:0000000000000000@acme", Position.parse("000000000000000100000001"), 1);
    subs.publish(List.of(row), Map.of("w1", Set.of("1")), cursor);
    Object[] first = a.patches.getFirst();
    Object[] second = b.patches.getFirst();
    // The recording subscriber keeps each patch's parts as an Object[]; these are the lists it was handed.
    @SuppressWarnings("unchecked")
    List<Op> ops = (List<Op>) first[1];
    // As above: the second part is the patch's write ids.
    @SuppressWarnings("unchecked")
    List<String> writes = (List<String>) first[2];
    ServerFrame.Patch frame = new ServerFrame.Patch("s1", ops, writes, cursor);
    assertAll(
        () -> assertSame(first[1], second[1], "one ops list for both"),
        () -> assertSame(first[2], second[2], "one writes list for both"),
        () -> assertEquals(List.of("w1"), writes),
        () -> assertSame(ops, frame.ops(), "the frame keeps the list it was given"),
        () -> assertSame(writes, frame.writes()),
        () -> assertEquals(0, c.patches.size(), "the row rule hides the change from cy: no patch"));
  }
}
