package io.runnel.client.live;

import io.runnel.client.port.SocketPort;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.ArrayList;
import java.util.List;

/** A scripted node: records every socket the client opens, what it sends and how it closes it. */
final class FakeSockets implements SocketPort {

  /** One socket the client opened. */
  static final class Socket implements Connection {
    final String url;
    final Listener listener;
    final List<String> sent = new ArrayList<>();
    int closedWith = -1;

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
    List<JsonObject> frames() {
      return sent.stream().map(s -> (JsonObject) Json.parse(s)).toList();
    }

    /** The kinds of the frames sent, in order. */
    List<String> kinds() {
      return frames().stream().map(f -> ((JsonString) f.get("t")).value()).toList();
    }

    void open() {
      listener.opened();
    }

    void receive(String frame) {
      listener.text(frame);
    }
  }

  final List<Socket> opened = new ArrayList<>();

  @Override
  public Connection open(String url, Listener listener) {
    Socket s = new Socket(url, listener);
    opened.add(s);
    return s;
  }

  Socket last() {
    return opened.get(opened.size() - 1);
  }
}
