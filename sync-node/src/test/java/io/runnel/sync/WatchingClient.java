package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.sync.live.LiveFixtureAccess;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
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
import org.jspecify.annotations.Nullable;

/**
 * A well-behaved client (the JDK's WebSocket client) holding one subscription's list, rebuilt from its snapshot and
 * patches as a browser's record store would: ops applied in sequence, each patch's cursor after the one before.
 * Whatever breaks that — a patch whose cursor does not advance, an op on a key the list does not hold, a refusal, any
 * frame but {@code hello}, {@code snapshot} and {@code patch}, or the node closing the socket — is kept in
 * {@link #problems()}.
 */
final class WatchingClient implements WebSocket.Listener {

  private final List<JsonObject> list = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();
  private final BlockingQueue<String> hellos = new LinkedBlockingQueue<>();
  private final StringBuilder partial = new StringBuilder();
  private int snapshots;
  private int patches;
  private String lastLsn = "";
  private WebSocket ws;

  private WatchingClient() {}

  /**
   * A socket to the node on {@code port} as {@code token}, subscribed to the live query {@code query} as sid w, once
   * its snapshot has arrived.
   */
  static WatchingClient subscribe(int port, String token, String query) throws InterruptedException {
    WatchingClient c = new WatchingClient();
    c.ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
        .header("Authorization", "Bearer " + token)
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/sync"), c).orTimeout(30, TimeUnit.SECONDS).join();
    c.ws.sendText("{\"t\":\"sub\",\"sid\":\"w\",\"q\":\"" + query + "\",\"in\":{}}", true).join();
    // The hello is answered at once, the snapshot once the window's read lands: wait for the snapshot itself.
    LiveFixtureAccess.await("the snapshot arrives",
        () -> c.snapshots() > 0 || !c.problems().isEmpty());
    return c;
  }

  @Override
  public synchronized CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      JsonObject f = (JsonObject) Json.parse(partial.toString());
      partial.setLength(0);
      apply(f);
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public synchronized CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    problems.add("the node closed the socket: " + statusCode + " " + reason);
    return null;
  }

  @Override
  public synchronized void onError(WebSocket webSocket, Throwable error) {
    problems.add("the socket failed: " + error);
  }

  private void apply(JsonObject f) {
    switch (str(f, "t")) {
      case "hello" -> hellos.add(str(f, "lsn"));
      case "snapshot" -> {
        snapshots++;
        list.clear();
        for (JsonValue r : ((JsonArray) f.get("records")).elements()) {
          list.add((JsonObject) r);
        }
        lastLsn = str((JsonObject) f.get("cursor"), "lsn");
      }
      case "patch" -> {
        patches++;
        String lsn = str((JsonObject) f.get("cursor"), "lsn");
        if (lsn.compareTo(lastLsn) <= 0) {
          problems.add("patch " + patches + " at " + lsn + " does not come after " + lastLsn);
        }
        lastLsn = lsn;
        for (JsonValue v : ((JsonArray) f.get("ops")).elements()) {
          op((JsonObject) v);
        }
      }
      default -> problems.add("unexpected frame " + f);
    }
  }

  private void op(JsonObject op) {
    String key = str(op, "key");
    int at = indexOf(key);
    if ("del".equals(str(op, "op"))) {
      if (at < 0) {
        problems.add("del of a key not held: " + key);
      } else {
        list.remove(at);
      }
      return;
    }
    JsonObject record = JsonObject.builder().put("type", op.get("type")).put("key", op.get("key"))
        .put("row", op.get("row")).build();
    if (!op.members().containsKey("after")) {
      if (at < 0) {
        problems.add("in-place put of a key not held: " + key);
      } else {
        list.set(at, record);
      }
      return;
    }
    if (at >= 0) {
      list.remove(at);
    }
    JsonValue after = op.get("after");
    int prev = after == JsonNull.NULL ? -1 : indexOf(((JsonString) after).value());
    if (after != JsonNull.NULL && prev < 0) {
      problems.add("put after a key not held: " + after);
      return;
    }
    list.add(prev + 1, record);
  }

  private int indexOf(String key) {
    for (int i = 0; i < list.size(); i++) {
      if (str(list.get(i), "key").equals(key)) {
        return i;
      }
    }
    return -1;
  }

  private static String str(JsonObject o, String field) {
    return ((JsonString) o.get(field)).value();
  }

  /** Sends a {@code hello} and waits for its answer: every frame the node queued before it has arrived. */
  void roundTrip() throws InterruptedException {
    ws.sendText("{\"t\":\"hello\",\"v\":1}", true).join();
    assertNotNull(hellos.poll(30, TimeUnit.SECONDS), "the hello was answered");
  }

  /** The list as the client holds it. */
  synchronized List<JsonObject> list() {
    return List.copyOf(list);
  }

  /** How many patches arrived. */
  synchronized int patches() {
    return patches;
  }

  /** How many snapshots arrived. */
  synchronized int snapshots() {
    return snapshots;
  }

  /** What went wrong, in order (empty when nothing did). */
  synchronized List<String> problems() {
    return List.copyOf(problems);
  }

  /** Closes with 1000. */
  void close() {
    ws.sendClose(1000, "done").join();
  }

  /** The first problem, or null. */
  synchronized @Nullable String firstProblem() {
    return problems.isEmpty() ? null : problems.get(0);
  }
}
