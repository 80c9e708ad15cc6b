package io.runnel.client;

import static io.runnel.client.fake.Node.STAMP;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.MapStore;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.port.Tabs;
import io.runnel.dsl.Row;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a twin sees as {@code tx.actor()}: the id the node's {@code hello} named (or the one remembered from the last
 * connection, offline) with the org the page gave at connect; anonymous while no actor is known, and the overlay is
 * built again when one becomes known.
 */
class RunnelClientActorTest {

  private final FakeScheduler scheduler = new FakeScheduler();
  private final MapStore durable = new MapStore();

  private Page page(String orgId) {
    return new Page(scheduler, durable, Credentials.cookie(), Tabs.alone(), new CountingIds(), orgId);
  }

  /** Every row {@code p} showed for post {@code key}, as {@code title@org} ({@code none} when there was none). */
  private static List<String> watch(Page p, String key) {
    List<String> seen = new ArrayList<>();
    p.client.record("posts", key, (Row r) -> seen.add(r == null ? "none" : r.text("title") + "@" + r.text("org")));
    return seen;
  }

  @Test
  void aTwinRunBeforeAnyHelloSeesNoActorThenTheHellosActorWithThePagesOrg() {
    Page page = page("acme");
    page.client.connect();
    List<String> seen = watch(page, "p1");
    page.client.mutate(STAMP, "p1");
    page.online("u1", 1);
    assertEquals(List.of("none", "anonymous@-", "u1@acme"), seen,
        "the overlay is built again when the node names the actor");
  }

  @Test
  void aPageReloadedOfflineGivesItsTwinsTheActorItRemembers() {
    Page first = page("acme");
    first.client.connect();
    first.online("u1", 1);
    first.client.close();
    Page reloaded = page("acme");
    reloaded.client.connect();
    List<String> seen = watch(reloaded, "p2");
    reloaded.client.mutate(STAMP, "p2");
    assertEquals(List.of("none", "u1@acme"), seen, "no hello yet: the remembered actor, with the page's org");
  }

  @Test
  void anAnonymousPageReloadedOfflineGivesItsTwinsTheAnonymousActor() {
    Page first = page("acme");
    first.client.connect();
    first.online(null, 1);
    first.client.close();
    Page reloaded = page("acme");
    List<RunnelException> errors = new ArrayList<>();
    reloaded.client.errors(errors::add);
    reloaded.client.connect();
    List<String> seen = watch(reloaded, "p4");
    reloaded.client.mutate(STAMP, "p4");
    assertAll(
        () -> assertEquals(List.of("none", "anonymous@-"), seen, "the remembered principal is the anonymous one"),
        () -> assertEquals(List.of(), errors));
  }

  @Test
  void withNoOrgGivenATwinSeesTheActorWithNoOrg() {
    Page page = page(null);
    page.client.connect();
    page.online("u1", 1);
    List<String> seen = watch(page, "p3");
    page.client.mutate(STAMP, "p3");
    assertAll(() -> assertEquals(List.of("none", "u1@-"), seen));
  }
}
