package io.runnel.sync.channel.internal;

import io.runnel.dsl.Actor;
import io.runnel.sync.socket.internal.FrameCodec;

/** What the hub needs of a socket that joins topics: its id, its actor, and a send that never blocks. */
public interface ChannelMember {

  /**
   * The socket's id, unique on the node and never reused: it names the member's presence seat, and is an anonymous
   * actor's presence key.
   */
  String id();

  /** Whether the socket is still open; a join that lands after it closed is undone. */
  boolean open();

  /** Who the socket is (decided at its upgrade). */
  Actor actor();

  /**
   * Queues the JSON text of one node frame ({@link FrameCodec#encode}) without blocking.
   *
   * @return false when the frame was dropped (the socket's outbound queue is full, or the socket is closed)
   */
  boolean send(String frameText);
}
