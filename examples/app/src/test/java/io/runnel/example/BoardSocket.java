package io.runnel.example;

import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A client socket on a running {@link BoardApp}'s {@code /v1/sync} (the JDK's WebSocket client), signed in with a
 * bearer token, as a script would hold one; it keeps every text frame it receives, in order.
 */
final class BoardSocket implements WebSocket.Listener, AutoCloseable {

  /** One received frame: its text as sent, and parsed. */
  record Frame(String text, JsonObject json) {
    /** The frame's {@code t}. */
    String t() {
      return ((JsonString) json.get("t")).value();
    }

    /** The frame's {@code sid}, or null. */
    String sid() {
      return json.get("sid") instanceof JsonString s ? s.value() : null;
    }

    /** The frame's string member {@code name}, or null. */
    String text(String name) {
      return json.get(name) instanceof JsonString s ? s.value() : null;
    }
  }

  private final BlockingQueue<Frame> inbox = new LinkedBlockingQueue<>();
  private final StringBuilder partial = new StringBuilder();
  private WebSocket ws;

  private BoardSocket() {}

  /** A socket to the app on {@code port}, upgrading with {@code Authorization: Bearer <token>}. */
  static BoardSocket open(int port, String token) {
    BoardSocket s = new BoardSocket();
    s.ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token)
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/sync"), s)
        .orTimeout(30, TimeUnit.SECONDS).join();
    return s;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      String text = partial.toString();
      partial.setLength(0);
      inbox.add(new Frame(text, (JsonObject) Json.parse(text)));
    }
    webSocket.request(1);
    return null;
  }

  /** Sends one text frame. */
  void send(String frame) {
    ws.sendText(frame, true).join();
  }

  /**
   * Every frame received until one matching {@code last} (included), waiting up to 30 s for each.
   *
   * @throws AssertionError when 30 s pass without a frame
   */
  List<Frame> until(Predicate<Frame> last) throws InterruptedException {
    List<Frame> out = new ArrayList<>();
    while (true) {
      Frame f = inbox.poll(30, TimeUnit.SECONDS);
      if (f == null) {
        throw new AssertionError("no frame within 30 s; received so far: " + out);
      }
      out.add(f);
      if (last.test(f)) {
        return out;
      }
    }
  }

  /** Closes with 1000. */
  @Override
  public void close() {
    ws.sendClose(1000, "done").orTimeout(30, TimeUnit.SECONDS).join();
  }
}
