package io.runnel.client.live.internal;

import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.ServerFrame;
import java.util.function.Consumer;

/**
 * The seam for channel topics ({@code io.runnel.client.channel.internal.Channels}): the live client hands it the
 * frames of topics, tells it when a connection opens (after the {@code hello} answer) and closes, beats it with every
 * heartbeat {@code hello} (the held {@code join}s are repeated then: the presence heartbeat), and tells it when a
 * principal change cleared the record store.
 */
public interface TopicFrames {

  /** No channels: topic frames are ignored and nothing is joined. */
  TopicFrames NONE = new TopicFrames() {
    @Override
    public void frame(ServerFrame frame) {}

    @Override
    public void connected(Consumer<ClientFrame> send) {}

    @Override
    public void beat() {}

    @Override
    public void offline() {}

    @Override
    public void cleared() {}

    @Override
    public boolean synced() {
      return true;
    }
  };

  /** A {@code records}, {@code gap}, {@code event}, {@code presence}, {@code presence-diff} or topic {@code refuse}. */
  void frame(ServerFrame frame);

  /**
   * A connection is online: send every held {@code join} through {@code send}, which sends on this connection
   * until {@link #offline()}.
   */
  void connected(Consumer<ClientFrame> send);

  /** A heartbeat {@code hello} went out: repeat every held {@code join} (the presence heartbeat). */
  void beat();

  /** The connection is gone (closed, silent, failed, told to reconnect, or the client stopped). */
  void offline();

  /** A principal change cleared the record store: records a topic held there are gone. */
  void cleared();

  /**
   * Whether every records topic has applied all it was sent (no catch-up read in flight), so a {@code hello}
   * answer's LSN may settle writes.
   */
  boolean synced();
}
