package io.runnel.client.live;

import io.runnel.client.frame.ClientFrame;
import io.runnel.client.frame.ServerFrame;
import java.util.function.Consumer;

/**
 * The seam for channel topics (a later issue): the client hands it the frames of topics and asks it, after each
 * {@code hello} answer that opens a connection, to send its {@code join}s again.
 */
public interface TopicFrames {

  /** No channels: topic frames are ignored and nothing is joined. */
  TopicFrames NONE = new TopicFrames() {
    @Override
    public void frame(ServerFrame frame) {}

    @Override
    public void connected(Consumer<ClientFrame> send) {}
  };

  /** A {@code records}, {@code gap}, {@code event}, {@code presence}, {@code presence-diff} or topic {@code refuse}. */
  void frame(ServerFrame frame);

  /** A connection is online: send every held {@code join} through {@code send}. */
  void connected(Consumer<ClientFrame> send);
}
