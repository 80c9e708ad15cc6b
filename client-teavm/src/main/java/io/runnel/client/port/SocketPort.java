package io.runnel.client.port;

/** Opens the read-only WebSocket to a node ({@code /v1/sync}); text frames only. */
public interface SocketPort {

  /** What happens on one socket, called on the client's thread. */
  interface Listener {
    /** The socket is open. */
    void opened();

    /** A text frame arrived. */
    void text(String frame);

    /** The socket closed (or failed to open) with {@code code} (1006 when the network dropped it). */
    void closed(int code, String reason);
  }

  /** One open (or opening) socket. */
  interface Connection {
    /** Sends one text frame; dropped when the socket is not open. */
    void send(String text);

    /** Closes with {@code code} (1000, or 4000 for heartbeat silence). */
    void close(int code, String reason);
  }

  /** Opens a socket to {@code url} ({@code ws(s)://host/v1/sync?ticket=…}). */
  Connection open(String url, Listener listener);
}
