package io.runnel.protocol;

import java.util.Objects;

/**
 * Where a client stands in a channel topic's records, sent in {@code join} to resume them ({@code docs/protocol.md},
 * "Socket frames"): {@code { "epoch", "seq" }}.
 *
 * @param epoch the topic's sequence incarnation as the node named it in {@code records} (an opaque, non-empty
 *     string); a new epoch means the old sequence numbers mean nothing
 * @param seq the last {@code records} sequence number the client applied in that epoch, at least 0
 */
public record TopicCursor(String epoch, long seq) {

  /**
   * Checks the parts.
   *
   * @throws IllegalArgumentException when the epoch is empty or the sequence number negative
   * @throws NullPointerException without an epoch
   */
  public TopicCursor {
    Frames.requireNonEmpty(Objects.requireNonNull(epoch, "epoch"), "epoch");
    Frames.requireNonNegative(seq, "seq");
  }
}
