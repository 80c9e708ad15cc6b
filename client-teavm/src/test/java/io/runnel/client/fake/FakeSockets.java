package io.runnel.client.fake;

import io.runnel.client.port.SocketPort;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.ArrayList;
import java.util.List;

/** A scripted node: records every socket the client opens, what it sends and how it closes it. */
public final class FakeSockets implements SocketPort {

  /** One socket the client opened; the test plays the node through it. */
  public static final class Socket implements Connection {
    public final String url;
    public final Listener listener;
    public final List<String> sent = new ArrayList<>();
    public int closedWith = -1;

    Socket(String url, Listener listener) {
      this.url = url;
      this.listener = listener;
    }

    @Override
    public void send(String text) {
      sent.add(text);
    }

    @Override
    public void close(int code, String reason) {
      closedWith = code;
    }

    /** The frames sent, parsed. */
    public List<JsonObject> frames() {
      return sent.stream().map(s -> (JsonObject) Json.parse(s)).toList();
    }

    /** The kinds of the frames sent, in order. */
    public List<String> kinds() {
      return frames().stream().map(f -> ((JsonString) f.get("t")).value()).toList();
    }

    /** The node accepts the socket. */
    public void open() {
      listener.opened();
    }

    /** The node sends {@code frame}. */
    public void receive(String frame) {
      listener.text(frame);
    }
  }

  public final List<Socket> opened = new ArrayList<>();

  @Override
  public Connection open(String url, Listener listener) {
    Socket s = new Socket(url, listener);
    opened.add(s);
    return s;
  }

  /** The socket opened last. */
  public Socket last() {
    return opened.get(opened.size() - 1);
  }
}
