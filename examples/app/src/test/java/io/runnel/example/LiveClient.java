package io.runnel.example;

import io.runnel.testing.ProtocolClient;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A client of the board as the browser client holds its lists, over a real socket (a {@link ProtocolClient}): per
 * subscription the records in query order, built from {@code snapshot} and changed by each {@code patch}'s ops as
 * {@code docs/protocol.md} defines them, with the latest cursor; the {@code lsn} of the last {@code hello} answer; and
 * the last {@code reconnect} frame a draining node sent. It can leave one node and resume on another with its cursors
 * and held keys.
 */
final class LiveClient implements AutoCloseable {

  /** One subscription: its frame, the records in order (key → row) and the latest cursor. */
  private static final class Sub {
    final String frame;
    final List<String> keys = new ArrayList<>();
    final Map<String, JsonObject> rows = new HashMap<>();
    JsonObject cursor;
    final List<String> kinds = new ArrayList<>();

    Sub(String frame) {
      this.frame = frame;
    }
  }

  private final String name;
  private final String token;
  private final Map<String, Sub> subs = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();
  private String helloLsn = "";
  private long hellosSent;
  private long hellosAnswered;
  private long reconnectDelayMs = -1;
  private long reconnectAt;
  /** Counts the sockets opened; frames are applied only from the one it holds now. */
  private long generation;
  private @Nullable ProtocolClient<JsonObject> ws;

  LiveClient(String name, String token) {
    this.name = name;
    this.token = token;
  }

  /** Opens a socket to the node on {@code port} and says hello; the answers counted are this socket's from here on. */
  synchronized void connect(int port) {
    long mine = ++generation;
    ws = ProtocolClient.to(port).bearer(token).open(text -> (JsonObject) Json.parse(text), r -> received(mine, r));
    hellosSent = 0;
    hellosAnswered = 0;
    helloLsn = "";
    reconnectDelayMs = -1;
    hello();
  }

  /** Subscribes {@code sid} to query {@code q} with input {@code in} (a JSON object's text). */
  synchronized void subscribe(String sid, String q, String in) {
    Sub s = new Sub("{\"t\":\"sub\",\"sid\":\"" + sid + "\",\"q\":\"" + q + "\",\"in\":" + in);
    subs.put(sid, s);
    send(s.frame + "}");
  }

  /** Closes the socket (1000), keeping the lists and cursors. */
  void leave() {
    ProtocolClient<JsonObject> w;
    synchronized (this) {
      w = Objects.requireNonNull(ws, "connected");
      ws = null;
      generation++;
    }
    w.close(1000, "moving");
  }

  /**
   * Connects to the node on {@code port} and resubscribes every subscription with its cursor and the keys it holds,
   * as the browser client resumes; the frames of each resume are recorded from here on ({@link #kinds}).
   */
  synchronized void resumeOn(int port) {
    connect(port);
    for (Map.Entry<String, Sub> e : subs.entrySet()) {
      Sub s = e.getValue();
      s.kinds.clear();
      Map<String, JsonValue> cursor = new LinkedHashMap<>(s.cursor.members());
      cursor.put("ids", JsonArray.ofStrings(List.copyOf(s.keys)));
      send(s.frame + ",\"cursor\":" + new JsonObject(cursor) + "}");
    }
  }

  /** Sends a {@code hello}, whose answer's {@code lsn} says how far the node has queued this socket's frames. */
  private void hello() {
    hellosSent++;
    send("{\"t\":\"hello\",\"v\":1}");
  }

  /**
   * Sends a {@code hello} and waits up to 30 s for its answer, so every frame the node queued before it has been
   * applied; answers the answer's {@code lsn}.
   *
   * @throws AssertionError when no answer comes
   */
  synchronized String helloRoundTrip() throws InterruptedException {
    hello();
    long mine = hellosSent;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (hellosAnswered < mine) {
      long rest = deadline - System.nanoTime();
      if (rest <= 0) {
        throw new AssertionError(name + ": no answer to a hello within 30 s");
      }
      TimeUnit.NANOSECONDS.timedWait(this, rest);
    }
    return helloLsn;
  }

  /**
   * Waits up to {@code seconds} for a {@code reconnect} frame on the current socket and answers its {@code delayMs}.
   *
   * @throws AssertionError when none comes
   */
  synchronized long awaitReconnect(long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (reconnectDelayMs < 0) {
      long rest = deadline - System.nanoTime();
      if (rest <= 0) {
        throw new AssertionError(name + ": no reconnect frame within " + seconds + " s");
      }
      TimeUnit.NANOSECONDS.timedWait(this, rest);
    }
    return reconnectDelayMs;
  }

  /** When ({@link System#nanoTime}) the last {@code reconnect} frame arrived. */
  synchronized long reconnectAt() {
    return reconnectAt;
  }

  /** The kinds of frame ({@code snapshot}, {@code patch}) {@code sid} received since the last resume. */
  synchronized List<String> kinds(String sid) {
    return List.copyOf(subs.get(sid).kinds);
  }

  /** {@code sid}'s list: one line per record in order, made by {@code line} from its row. */
  synchronized List<String> list(String sid, Function<JsonObject, String> line) {
    Sub s = subs.get(sid);
    List<String> out = new ArrayList<>();
    for (String key : s.keys) {
      out.add(line.apply(s.rows.get(key)));
    }
    return out;
  }

  /** The refusals received, and any op the list could not apply; empty when all went well. */
  synchronized List<String> problems() {
    return List.copyOf(problems);
  }

  private void send(String frame) {
    Objects.requireNonNull(ws, "connected").send(frame);
  }

  private synchronized void received(long socketGeneration, ProtocolClient.Received<JsonObject> r) {
    if (socketGeneration != generation) {
      // A socket it left: what comes on it after the leave is not applied (the cursor stays where the list is).
      return;
    }
    apply(r.frame(), r.receivedAt());
    notifyAll();
  }

  /** Applies frame {@code f}, which arrived at {@code receivedAt} ({@link System#nanoTime}). */
  private void apply(JsonObject f, long receivedAt) {
    String t = text(f, "t");
    switch (t) {
      case "hello" -> {
        helloLsn = text(f, "lsn");
        hellosAnswered++;
      }
      case "reconnect" -> {
        reconnectAt = receivedAt;
        reconnectDelayMs = ((JsonNumber) f.get("delayMs")).longValueExact();
      }
      case "snapshot" -> {
        Sub s = subs.get(text(f, "sid"));
        s.kinds.add(t);
        s.keys.clear();
        s.rows.clear();
        for (JsonValue v : ((JsonArray) f.get("records")).elements()) {
          JsonObject r = (JsonObject) v;
          s.keys.add(text(r, "key"));
          s.rows.put(text(r, "key"), (JsonObject) r.get("row"));
        }
        s.cursor = (JsonObject) f.get("cursor");
      }
      case "patch" -> {
        Sub s = subs.get(text(f, "sid"));
        s.kinds.add(t);
        for (JsonValue v : ((JsonArray) f.get("ops")).elements()) {
          String problem = op(s, (JsonObject) v);
          if (problem != null) {
            problems.add(problem);
          }
        }
        s.cursor = (JsonObject) f.get("cursor");
      }
      case "refuse" -> problems.add(f.toString());
      default -> { }
    }
  }

  /** Applies {@code op}; returns what was wrong with it, or null. */
  private static String op(Sub s, JsonObject op) {
    String key = text(op, "key");
    if (text(op, "op").equals("del")) {
      s.keys.remove(key);
      s.rows.remove(key);
      return null;
    }
    s.rows.put(key, (JsonObject) op.get("row"));
    if (!op.members().containsKey("after")) {
      return s.keys.contains(key) ? null : "an update in place of " + key + ", which the list does not hold: " + op;
    }
    s.keys.remove(key);
    JsonValue after = op.get("after");
    int at = after instanceof JsonString a ? s.keys.indexOf(a.value()) + 1 : 0;
    if (after instanceof JsonString a && at == 0) {
      return "a put after " + a.value() + ", which the list does not hold: " + op;
    }
    s.keys.add(at, key);
    return null;
  }

  private static String text(JsonObject o, String name) {
    return o.get(name) instanceof JsonString s ? s.value() : null;
  }

  @Override
  public String toString() {
    return name;
  }

  @Override
  public void close() {
    if (ws != null) {
      leave();
    }
  }
}
