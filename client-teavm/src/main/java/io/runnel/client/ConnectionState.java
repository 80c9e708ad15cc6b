package io.runnel.client;

/**
 * The live connection as a page shows it: connecting, online, offline until the next attempt, or closed for good.
 * Each time the socket goes online its {@code epoch} grows, so work begun under an older connection can tell it was
 * cut.
 */
public sealed interface ConnectionState permits ConnectionState.Connecting, ConnectionState.Online,
    ConnectionState.Offline, ConnectionState.Closed {

  /**
   * Opening a socket.
   *
   * @param epoch the count of connections so far
   */
  record Connecting(long epoch) implements ConnectionState {}

  /**
   * The socket is open and the node answered {@code hello}.
   *
   * @param epoch this connection's number, from 1
   */
  record Online(long epoch) implements ConnectionState {}

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
