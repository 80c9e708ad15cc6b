package io.runnel.client.outbox;

import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Tabs;
import java.util.function.Consumer;

/**
 * The other tabs of the origin as the outbox sees them ({@link Tabs}): the lock of the signed-in principal's queue,
 * which makes this tab the one that drains it, and the messages about the queues ({@link TabMessage}).
 *
 * <p>Design: one lock is held or asked for at a time, and each request is numbered, so a grant that arrives after
 * its request was released (another principal signed in, or the outbox stopped) is ignored. A message this version
 * cannot read never reaches the outbox.
 */
final class Siblings {

  private final Tabs tabs;
  private final JsonPort json;
  private Tabs.Lease lease = () -> { };
  private int asked;
  private boolean holds;

  /** Listens to the other tabs: {@code heard} gets each message this version reads. */
  Siblings(Tabs tabs, JsonPort json, Consumer<TabMessage> heard) {
    this.tabs = tabs;
    this.json = json;
    tabs.listen(text -> {
      TabMessage m = TabMessage.read(text, json);
      if (m != null) {
        heard.accept(m);
      }
    });
  }

  /** Whether this tab holds the lock it asked for last. */
  boolean holds() {
    return holds;
  }

  /**
   * Asks for the lock of queue {@code q} ({@code runnel.outbox.<escaped principal>}); {@code granted} runs once this
   * tab holds it, unless it was released first. Release the lock held before.
   */
  void lead(PrincipalQueue q, Runnable granted) {
    int request = ++asked;
    lease = tabs.lead(q.prefix.substring(0, q.prefix.length() - 1), () -> {
      if (request == asked) {
        holds = true;
        granted.run();
      }
    });
  }

  /** Releases the lock held or asked for: this tab no longer drains. */
  void release() {
    asked++;
    holds = false;
    Tabs.Lease held = lease;
    lease = () -> { };
    held.release();
  }

  /** Tells every other tab {@code message}. */
  void tell(TabMessage message) {
    tabs.post(message.write(json));
  }
}
