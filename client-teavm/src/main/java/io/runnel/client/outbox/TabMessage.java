package io.runnel.client.outbox;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Nullable;

/**
 * What one tab's outbox tells the others of the origin ({@link io.runnel.client.port.Tabs#post}), as JSON text:
 * {@code {"t":"queued","q":<queue prefix>}}, {@code {"t":"applied","q","id","write","lsn","result"}} and
 * {@code {"t":"failed","q","id","mutator","error":{"code","status","cause","fix"}}}. {@link #read} answers null for
 * any other text, so a message from a tab of another version is ignored, never thrown.
 */
sealed interface TabMessage permits TabMessage.Queued, TabMessage.Applied, TabMessage.Failed {

  /**
   * A tab stored a new entry in a queue: a tab that has the queue loaded reads it again.
   *
   * @param queue the queue's store-key prefix
   */
  record Queued(String queue) implements TabMessage {}

  /**
   * The tab that drains the queue had write {@code writeId} applied.
   *
   * @param queue the queue's store-key prefix
   * @param writeId the write id
   * @param write the answer's write digest, or null when it had none
   * @param lsn the answer's LSN, or null when it had none
   * @param result the answer's result
   */
  record Applied(String queue, String writeId, @Nullable String write, @Nullable String lsn, JsonValue result)
      implements TabMessage {}

  /**
   * The tab that drains the queue failed write {@code writeId} for good.
   *
   * @param queue the queue's store-key prefix
   * @param writeId the write id
   * @param mutator the mutator's name
   * @param error why
   */
  record Failed(String queue, String writeId, String mutator, MutationError error) implements TabMessage {}

  /** The message as JSON text. */
  default String write(JsonPort json) {
    JsonObject.Builder b = JsonObject.builder();
    switch (this) {
      case Queued q -> b.put("t", "queued").put("q", q.queue());
      case Applied a -> b.put("t", "applied").put("q", a.queue()).put("id", a.writeId()).put("write", a.write())
          .put("lsn", a.lsn()).put("result", a.result());
      case Failed f -> {
        MutationError e = f.error();
        b.put("t", "failed").put("q", f.queue()).put("id", f.writeId()).put("mutator", f.mutator())
            .put("error", JsonObject.builder().put("code", e.code()).put("status", e.status())
                .put("cause", e.cause()).put("fix", e.fix()).build());
      }
    }
    return json.write(b.build());
  }

  /** The message {@code text} holds, or null when it is not one this version reads. */
  static @Nullable TabMessage read(String text, JsonPort json) {
    try {
      JsonObject o = object(json.parse(text));
      String t = text(o, "t");
      String q = text(o, "q");
      if ("queued".equals(t)) {
        return new Queued(q);
      }
      String id = text(o, "id");
      JsonValue result = o.get("result");
      if ("applied".equals(t) && result != null) {
        return new Applied(q, id, optional(o, "write"), optional(o, "lsn"), result);
      }
      if (!"failed".equals(t) || !(object(o.get("error")).get("status") instanceof JsonNumber status)) {
        return null;
      }
      JsonObject e = object(o.get("error"));
      return new Failed(q, id, text(o, "mutator"), new MutationError(text(e, "code"), (int) status.longValueExact(),
          text(e, "cause"), text(e, "fix")));
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  private static JsonObject object(@Nullable JsonValue v) {
    if (v instanceof JsonObject o) {
      return o;
    }
    throw new IllegalArgumentException("Not a JSON object");
  }

  private static String text(JsonObject o, String name) {
    String s = optional(o, name);
    if (s == null) {
      throw new IllegalArgumentException("Member '" + name + "' is not a string");
    }
    return s;
  }

  private static @Nullable String optional(JsonObject o, String name) {
    return o.get(name) instanceof JsonString s ? s.value() : null;
  }
}
