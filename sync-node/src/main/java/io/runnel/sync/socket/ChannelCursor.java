package io.runnel.sync.socket;

import java.util.Objects;

/**
 * Where a client stands in a channel topic's records, sent in {@code join} to resume them: {@code { "epoch", "seq"
 * }}.
 *
 * @param epoch the topic's sequence incarnation as the node named it in {@code records} (an opaque, non-empty
 *     string); a new epoch means the old sequence numbers mean nothing
 * @param seq the last {@code records} sequence number the client applied in that epoch, at least 0
 */
public record ChannelCursor(String epoch, long seq) {

  /** @throws IllegalArgumentException when the epoch is empty or the sequence number negative */
  public ChannelCursor {
    Frames.requireNonEmpty(Objects.requireNonNull(epoch, "epoch"), "epoch");
    Frames.requireNonNegative(seq, "seq");
  }
}
