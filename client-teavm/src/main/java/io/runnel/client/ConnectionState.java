package io.runnel.client;

import org.jspecify.annotations.Nullable;

/**
 * The live connection as a page shows it: connecting, online, offline until the next attempt, or closed for good.
 * Each time the socket goes online its {@code epoch} grows, so work begun under an older connection can tell it was
 * cut.
 */
public sealed interface ConnectionState permits ConnectionState.Connecting, ConnectionState.Online,
    ConnectionState.Offline, ConnectionState.Closed {

  /** The count of connections so far: this connection's number when {@link Online}, from 1. */
  long epoch();

  /**
   * Opening a socket.
   *
   * @param epoch the count of connections so far
   */
  record Connecting(long epoch) implements ConnectionState {}

  /**
   * The socket is open and the node answered {@code hello}. Each later {@code hello} answer that says another lag
   * gives a new {@code Online} of the same epoch, so a page can show "updates delayed" or "as of".
   *
   * @param epoch this connection's number, from 1
   * @param lagMs how far behind PostgreSQL the node is, milliseconds, at its last {@code hello} answer; null while
   *     the node has no position yet
   * @param asOf the PostgreSQL time (epoch ms) through which the node holds every change; null with {@code lagMs}
   */
  record Online(long epoch, @Nullable Long lagMs, @Nullable Long asOf) implements ConnectionState {
    /** Online, with no lag known. */
    public Online(long epoch) {
      this(epoch, null, null);
    }
  }

  /**
   * No socket; the next attempt is at {@code reconnectAt}.
   *
   * @param epoch the count of connections so far
   * @param reconnectAt epoch milliseconds of the next attempt
   */
  record Offline(long epoch, long reconnectAt) implements ConnectionState {}

  /**
   * The client was stopped: no socket and no next attempt; the last state its listeners hear.
   *
   * @param epoch the count of connections so far
   */
  record Closed(long epoch) implements ConnectionState {}
}
