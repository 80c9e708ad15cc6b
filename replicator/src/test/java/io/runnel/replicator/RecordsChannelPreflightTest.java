package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.bus.Subjects;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Preflight for records channels: a table whose channel params are not all key columns needs REPLICA IDENTITY FULL
 * (a delete or a move otherwise reaches the nodes without the old row's params), and is warned with the fix; a
 * channel's entities are published even when not listed among the entities.
 */
@FreshDatabase
class RecordsChannelPreflightTest {

  static final EntityRef BOARDS = EntityRef.of("boards").key("id").columns(c -> c.int4("id").text("org"));
  static final EntityRef FULL_CARDS = EntityRef.of("full_cards").key("id").columns(c -> c.int4("id").text("org"));
  static final EntityRef KEYED = EntityRef.of("keyed").key("org", "id").columns(c -> c.text("org").int4("id"));
  static final ChannelRef ORG = ChannelRef.of("org", "orgId");

  @Test
  void aRecordsChannelOnATableWithoutFullIdentityWhoseParamsAreNotKeyColumnsIsWarnedWithTheFix(TestDatabase db)
      throws Exception {
    db.execute("""
        CREATE TABLE boards (id int PRIMARY KEY, org text);
        CREATE TABLE full_cards (id int PRIMARY KEY, org text);
        ALTER TABLE full_cards REPLICA IDENTITY FULL;
        CREATE TABLE keyed (org text, id int, PRIMARY KEY (org, id));
        """);
    Channel channel = Channel.of(ORG).records(Entity.of(BOARDS), "org").records(Entity.of(FULL_CARDS), "org")
        .records(Entity.of(KEYED), "org").policy(Policy.memberOfParam("orgId"));
    BlockingQueue<String> subjects = new LinkedBlockingQueue<>();
    try (InProcessTransport bus = InProcessTransport.create();
        Replicator r = Replicator.builder().database(Harness.url(db)).slot("preflight").publication("preflight")
            .channels(List.of(channel)).transport(bus).build()) {
      bus.subscribe(Subjects.ALL_CHANGES, m -> subjects.add(m.subject()));
      r.start();
      new Harness.StateWait(r).until(ReplicatorStats.State.STREAMING);
      db.execute("INSERT INTO boards VALUES (1, 'acme')");
      String subject = subjects.poll(30, TimeUnit.SECONDS);
      while (subject != null && subject.equals(Subjects.POSITION)) {
        subject = subjects.poll(30, TimeUnit.SECONDS);
      }
      // The replica identity warnings (the shared server's unlimited max_slot_wal_keep_size adds a retention one).
      List<String> warnings = r.stats().warnings().stream().filter(w -> w.startsWith("X_LIVE_REPLICA_IDENTITY"))
          .toList();
      String only = subject;
      assertAll(
          () -> assertEquals(1, warnings.size(), warnings.toString()),
          () -> assertTrue(warnings.get(0).startsWith("X_LIVE_REPLICA_IDENTITY: table public.boards carries records"
              + " channel 'org' by columns [org]"), warnings.get(0)),
          () -> assertTrue(warnings.get(0).endsWith("Fix: ALTER TABLE \"public\".\"boards\" REPLICA IDENTITY FULL;"),
              warnings.get(0)),
          () -> assertEquals(Subjects.changes("public", "boards"), only,
              "the channel's entity is published without being listed among the entities"));
    }
  }
}
