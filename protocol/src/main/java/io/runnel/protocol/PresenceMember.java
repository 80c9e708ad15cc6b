package io.runnel.protocol;

import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * One member of a topic's presence roster, as {@code presence} and {@code presence-diff} carry it
 * ({@code docs/protocol.md}, "Socket frames"): {@code { "key", "meta", "since" }}.
 *
 * @param key the member's presence key (non-empty)
 * @param meta the meta object the member's {@code join} carried ({@code {}} when it carried none)
 * @param since when the member joined, epoch milliseconds
 */
public record PresenceMember(String key, JsonObject meta, long since) {

  /**
   * Checks the parts.
   *
   * @throws IllegalArgumentException when the key is empty or {@code since} negative
   * @throws NullPointerException for a missing part
   */
  public PresenceMember {
    Frames.requireNonEmpty(Objects.requireNonNull(key, "key"), "presence key");
    Objects.requireNonNull(meta, "meta");
    Frames.requireNonNegative(since, "since");
  }
}
