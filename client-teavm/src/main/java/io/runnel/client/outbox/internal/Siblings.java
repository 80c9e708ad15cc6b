package io.runnel.client.outbox.internal;

import io.runnel.client.outbox.MutationError;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.Verdict;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Tabs;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import org.jspecify.annotations.Nullable;

/**
 * The other tabs of the origin as the outbox sees them ({@link Tabs}): the lock of the signed-in principal's queue,
 * which makes this tab the one that drains it, and the messages about the queues, as JSON text:
 * {@code {"t":"queued","q":<queue prefix>}} (a tab stored an entry) and {@code {"t":"settled","q","id","mutator",
 * "status","body"}} (the draining tab settled write {@code id}: {@code status} and {@code body} as the node's answer
 * reads, {@code {"result","write","lsn"}} with 200 or {@code {"code","cause","fix"}} with the error's status, so
 * {@link Verdict} reads them as it reads an answer).
 *
 * <p>Design: one lock is held or asked for at a time, and each request is numbered, so a grant that arrives after
 * its request was released (another principal signed in, or the outbox stopped) is ignored. A message this version
 * cannot read (another version's tab) never reaches the outbox, and never throws.
 */
final class Siblings {

  private final Tabs tabs;
  private final JsonPort json;
  private final Outbox outbox;
  private Tabs.@Nullable Lease lease;
  private int asked;
  private boolean holds;
  private boolean stopped;

  /** Listens to the other tabs for {@code outbox}. */
  Siblings(Tabs tabs, JsonPort json, Outbox outbox) {
    this.tabs = tabs;
    this.json = json;
    this.outbox = outbox;
    tabs.listen(text -> {
      try {
        heard(json.parse(text), outbox);
      } catch (RuntimeException unreadable) {
        // Another version's message, or no JSON: not for this tab.
      }
    });
  }

  /** Whether this tab holds the lock it asked for last. */
  boolean holds() {
    return holds;
  }

  /**
   * Asks for the lock of queue {@code q} ({@code runnel.outbox.<escaped principal>}); once this tab holds it, unless
   * it was released first, the outbox hears {@link Outbox#granted}. Release the lock held before. Nothing once
   * stopped.
   */
  void lead(PrincipalQueue q) {
    if (stopped) {
      return;
    }
    int request = ++asked;
    lease = tabs.lead(q.prefix.substring(0, q.prefix.length() - 1), () -> {
      if (request == asked) {
        holds = true;
        outbox.granted(q);
      }
    });
  }

  /** Releases the lock held or asked for: this tab no longer drains. */
  void release() {
    asked++;
    holds = false;
    Tabs.Lease held = lease;
    lease = null;
    if (held != null) {
      held.release();
    }
  }

  /** Releases the lock for good: a stopped outbox never drains again, so it never holds a queue from other tabs. */
  void stop() {
    stopped = true;
    release();
  }

  /** Tells the other tabs that this one stored entries in {@code q}. */
  void queued(PrincipalQueue q) {
    tell(JsonObject.builder().put("t", "queued").put("q", q.prefix));
  }

  /**
   * Tells the other tabs that entry {@code e} of {@code q} is settled with {@code outcome}.
   *
   * @param write the answer's write digest, or null
   * @param lsn the answer's LSN, or null
   */
  void settled(PrincipalQueue q, Entry e, MutationOutcome outcome, @Nullable String write, @Nullable String lsn) {
    JsonObject.Builder body = JsonObject.builder();
    int status = 200;
    if (outcome instanceof MutationOutcome.Applied a) {
      body.put("result", a.result()).put("write", write).put("lsn", lsn);
    } else if (outcome instanceof MutationOutcome.Failed f) {
      MutationError error = f.error();
      status = error.status();
      body.put("code", error.code()).put("cause", error.cause()).put("fix", error.fix());
    }
    tell(JsonObject.builder().put("t", "settled").put("q", q.prefix).put("id", e.writeId).put("mutator", e.mutator)
        .put("status", status).put("body", body.build()));
  }

  private void tell(JsonObject.Builder message) {
    tabs.post(json.write(message.build()));
  }

  /** Hands message {@code v} to {@code outbox}, when it is one this version reads. */
  private static void heard(JsonValue v, Outbox outbox) {
    if (v instanceof JsonObject o) {
      String t = text(o, "t");
      String q = text(o, "q");
      String id = text(o, "id");
      String mutator = text(o, "mutator");
      if ("queued".equals(t) && q != null) {
        outbox.queuedElsewhere(q);
      } else if ("settled".equals(t) && q != null && id != null && mutator != null
          && o.get("status") instanceof JsonNumber status && o.get("body") instanceof JsonObject body) {
        outbox.settledElsewhere(q, id, mutator, Verdict.of((int) status.longValueExact(), body, -1));
      }
    }
  }

  private static @Nullable String text(JsonObject o, String name) {
    return o.get(name) instanceof JsonString s ? s.value() : null;
  }
}
