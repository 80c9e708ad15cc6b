package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A test client socket on {@code /v1/sync} (the JDK's WebSocket client), queueing the text frames it receives. */
public class SocketClient implements WebSocket.Listener {

  final BlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
  private final StringBuilder partial = new StringBuilder();
  /** What ended the socket from the client's side (an error, or the close the node sent), or null. */
  volatile String ended;
  /** The socket. */
  public WebSocket ws;

  SocketClient() {}

  /** A socket to the node on {@code port}, upgrading with {@code headers}. */
  public static SocketClient open(int port, Map<String, String> headers) {
    SocketClient c = new SocketClient();
    WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30));
    headers.forEach(b::header);
    c.ws = b.buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/sync"), c)
        .orTimeout(30, TimeUnit.SECONDS).join();
    return c;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      frames.add((JsonObject) Json.parse(partial.toString()));
      partial.setLength(0);
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    ended = "error: " + error;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    ended = "closed by the node: " + statusCode + " " + reason;
    return null;
  }

  /** The next frame, waiting up to 30 s; fails the test when none comes, naming what ended the socket if anything. */
  public JsonObject next() throws InterruptedException {
    JsonObject f = frames.poll(30, TimeUnit.SECONDS);
    assertNotNull(f, () -> "a frame arrived (socket " + (ended == null ? "open" : ended) + ", "
        + partial.length() + " chars of an unfinished message)");
    return f;
  }

  /** The next frame within {@code millis}, or null. */
  public JsonObject poll(long millis) throws InterruptedException {
    return frames.poll(millis, TimeUnit.MILLISECONDS);
  }

  /** Sends one text frame. */
  public void send(String text) {
    ws.sendText(text, true).join();
  }

  /** Closes with 1000. */
  public void close() {
    ws.sendClose(1000, "done").join();
  }
}
