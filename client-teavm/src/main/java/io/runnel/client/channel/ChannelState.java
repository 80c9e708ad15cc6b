package io.runnel.client.channel;

import java.util.Objects;

/**
 * Where a channel stands: joining until the node answered its {@code join} with the topic's roster, catching up (a
 * records channel re-reading what it missed), live, offline until the socket comes back, or failed for good.
 */
public sealed interface ChannelState permits ChannelState.Joining, ChannelState.CatchingUp, ChannelState.Live,
    ChannelState.Offline, ChannelState.Failed {

  /**
   * Not joined yet: no connection has been online since the channel was opened, or the {@code join} sent on this
   * connection has not been answered by the node's roster (its first {@code presence} frame, which every accepted join
   * gets, an empty one on a channel without presence).
   */
  record Joining() implements ChannelState {}

  /**
   * Joined; a records channel is re-running its catch-up read (after joining without a cursor, a sequence hole, a
   * new epoch or a {@code gap}) and holds the {@code records} frames that arrive meanwhile.
   */
  record CatchingUp() implements ChannelState {}

  /** Joined, and every {@code records} frame so far is applied; events and presence arrive as sent. */
  record Live() implements ChannelState {}

  /** The connection dropped; the topic is joined again (and presence re-announced) when it comes back. */
  record Offline() implements ChannelState {}

  /**
   * The node refused the {@code join}, the catch-up read was refused, or the page could not ask: the topic is left
   * and never joined again by this handle.
   *
   * @param code the error code ({@code X_…}), kept as text: a newer node may send a code this client lacks
   * @param cause what happened
   * @param fix what to do
   */
  record Failed(String code, String cause, String fix) implements ChannelState {
    /** Checks the parts are given. */
    public Failed {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(fix, "fix");
    }
  }
}
