package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.ProtocolClient;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A well-behaved client holding one subscription's list, rebuilt from its snapshot and patches as a browser's record
 * store would ({@link HeldList}): ops applied in sequence, each patch's cursor after the one before. Whatever breaks
 * that — a patch whose cursor does not advance, an op on a key the list does not hold, a refusal, any frame but
 * {@code hello}, {@code snapshot} and {@code patch}, or the node closing the socket — is kept in {@link #problems()}.
 */
final class WatchingClient {

  private final HeldList list = new HeldList();
  private final List<String> problems = new ArrayList<>();
  private final BlockingQueue<String> hellos = new LinkedBlockingQueue<>();
  private int snapshots;
  private int patches;
  private String lastLsn = "";
  private @Nullable ProtocolClient<JsonObject> socket;

  private WatchingClient() {}

  /**
   * A socket to the node on {@code port} as {@code token}, subscribed to the live query {@code query} as sid w, once
   * its snapshot has arrived.
   */
  static WatchingClient subscribe(int port, String token, String query) throws InterruptedException {
    WatchingClient c = new WatchingClient();
    c.socket = ProtocolClient.to(port).bearer(token).open(Sockets::json, r -> c.apply(r.frame()));
    c.socket().send("{\"t\":\"sub\",\"sid\":\"w\",\"q\":\"" + query + "\",\"in\":{}}");
    // The hello is answered at once, the snapshot once the window's read lands: wait for the snapshot itself.
    LiveFixtureAccess.await("the snapshot arrives",
        () -> c.snapshots() > 0 || !c.problems().isEmpty());
    return c;
  }

  private ProtocolClient<JsonObject> socket() {
    return Objects.requireNonNull(socket, "subscribed");
  }

  private synchronized void apply(JsonObject f) {
    switch (str(f, "t")) {
      case "hello" -> hellos.add(str(f, "lsn"));
      case "snapshot" -> {
        snapshots++;
        list.snapshot((JsonArray) f.get("records"));
        lastLsn = str((JsonObject) f.get("cursor"), "lsn");
      }
      case "patch" -> {
        patches++;
        String lsn = str((JsonObject) f.get("cursor"), "lsn");
        if (lsn.compareTo(lastLsn) <= 0) {
          problems.add("patch " + patches + " at " + lsn + " does not come after " + lastLsn);
        }
        lastLsn = lsn;
        list.patch((JsonArray) f.get("ops"));
      }
      default -> problems.add("unexpected frame " + f);
    }
  }

  private static String str(JsonObject o, String field) {
    return ((JsonString) o.get(field)).value();
  }

  /** Sends a {@code hello} and waits for its answer: every frame the node queued before it has arrived. */
  void roundTrip() throws InterruptedException {
    socket().send("{\"t\":\"hello\",\"v\":1}");
    assertNotNull(hellos.poll(30, TimeUnit.SECONDS), "the hello was answered");
  }

  /** The list as the client holds it. */
  synchronized List<JsonObject> list() {
    return list.records();
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
    List<String> all = new ArrayList<>(problems);
    all.addAll(list.problems());
    String ended = socket == null ? null : socket.ended();
    if (ended != null) {
      all.add("the socket ended: " + ended);
    }
    return all;
  }

  /** Closes with 1000. */
  void close() {
    socket().close();
  }

  /** The first problem, or null. */
  synchronized @Nullable String firstProblem() {
    List<String> all = problems();
    return all.isEmpty() ? null : all.get(0);
  }
}
