package io.runnel.loadtest;

import java.net.http.WebSocket;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * One benchmark client socket (a JDK {@link WebSocket} listener): it completes {@link #first} with the first whole
 * text frame (the subscription's snapshot, or the bare route's echo), then records for every frame of kind
 * {@code patch} that carries a row the pair (its {@code field} number, the receipt's {@link System#nanoTime()}) and
 * its length; a patch without one (a row that left this subscriber's list, no row entering) is only counted
 * ({@link #unnumbered}).
 *
 * <p>A tracking socket ({@link #tracking}) also keeps what a Runnel client keeps to resume: the last {@code cursor}
 * and the keys its list holds, read from every {@code snapshot} and {@code patch} (the benchmark's rows hold no
 * {@code "key":"} text of their own, so a scan of the frame's text suffices).
 */
final class ClientSocket implements WebSocket.Listener {

  final int tenant;
  final CompletableFuture<String> first = new CompletableFuture<>();
  private final String field;
  private final boolean tracking;
  private @Nullable String cursor;
  private final Set<String> keys = new LinkedHashSet<>();
  private long unnumbered;
  private @Nullable StringBuilder partial;
  private long[] pairs = new long[64];
  private int size;
  private long chars;
  volatile @Nullable String ended;

  ClientSocket(int tenant, String field) {
    this(tenant, field, false);
  }

  ClientSocket(int tenant, String field, boolean tracking) {
    this.tenant = tenant;
    this.field = field;
    this.tracking = tracking;
  }

  /** A tracking socket that resumes {@code from}: its cursor and keys, as a reconnecting client holds them. */
  static ClientSocket resuming(ClientSocket from) {
    ClientSocket s = new ClientSocket(from.tenant, from.field, true);
    synchronized (from) {
      s.cursor = from.cursor;
      s.keys.addAll(from.keys);
    }
    return s;
  }

  /**
   * The {@code sub} frame's {@code cursor} member to resume with: the last cursor plus {@code ids}, the keys held
   * ({@code docs/protocol.md}); null before any cursor came.
   */
  synchronized @Nullable String resumeCursor() {
    if (cursor == null) {
      return null;
    }
    StringBuilder b = new StringBuilder(cursor.substring(0, cursor.length() - 1)).append(",\"ids\":[");
    boolean firstKey = true;
    for (String k : keys) {
      b.append(firstKey ? "\"" : ",\"").append(k).append('"');
      firstKey = false;
    }
    return b.append("]}").toString();
  }

  @Override
  public @Nullable CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
    long now = System.nanoTime();
    CharSequence whole = data;
    if (!last || partial != null) {
      if (partial == null) {
        partial = new StringBuilder();
      }
      partial.append(data);
      if (!last) {
        ws.request(1);
        return null;
      }
      whole = partial;
      partial = null;
    }
    if (tracking) {
      track(whole.toString());
    }
    if (!first.isDone()) {
      first.complete(whole.toString());
    } else {
      received(whole, now);
    }
    ws.request(1);
    return null;
  }

  private synchronized void received(CharSequence frame, long now) {
    String s = frame.toString();
    if (!s.startsWith("{\"t\":\"patch\"")) {
      return;
    }
    long n = Latencies.number(s, field);
    if (n < 0) {
      unnumbered++;
      return;
    }
    if (size + 2 > pairs.length) {
      pairs = Arrays.copyOf(pairs, pairs.length * 2);
    }
    pairs[size++] = n;
    pairs[size++] = now;
    chars += s.length();
  }

  /** Keeps the cursor and the keys held from a {@code snapshot} or {@code patch}. */
  private synchronized void track(String frame) {
    boolean snapshot = frame.startsWith("{\"t\":\"snapshot\"");
    if (!snapshot && !frame.startsWith("{\"t\":\"patch\"")) {
      return;
    }
    int c = frame.indexOf("\"cursor\":{");
    if (c < 0) {
      return;
    }
    if (snapshot) {
      keys.clear();
      for (int at = frame.indexOf("\"key\":\""); at >= 0 && at < c; at = frame.indexOf("\"key\":\"", at + 1)) {
        keys.add(keyAt(frame, at));
      }
    } else {
      for (int at = frame.indexOf("{\"op\":\""); at >= 0 && at < c; at = frame.indexOf("{\"op\":\"", at + 1)) {
        boolean put = frame.startsWith("put", at + 7);
        String key = keyAt(frame, frame.indexOf("\"key\":\"", at));
        if (put) {
          keys.add(key);
        } else {
          keys.remove(key);
        }
      }
    }
    cursor = frame.substring(c + 9, frame.indexOf('}', c) + 1);
  }

  private static String keyAt(String frame, int at) {
    int from = at + 7;
    return frame.substring(from, frame.indexOf('"', from));
  }

  /** Patches without a numbered row received so far. */
  synchronized long unnumbered() {
    return unnumbered;
  }

  /** The recorded pairs (number, receipt nanos), flattened, and forgets them. */
  synchronized long[] drain() {
    long[] out = Arrays.copyOf(pairs, size);
    size = 0;
    return out;
  }

  /** The recorded pairs, flattened, kept. */
  synchronized long[] peek() {
    return Arrays.copyOf(pairs, size);
  }

  /** Characters of the recorded frames, and resets the count. */
  synchronized long drainChars() {
    long c = chars;
    chars = 0;
    return c;
  }

  /** Frames recorded so far. */
  synchronized int count() {
    return size / 2;
  }

  @Override
  public void onError(WebSocket ws, Throwable error) {
    ended = "error: " + error;
    first.completeExceptionally(error);
  }

  @Override
  public @Nullable CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
    ended = "closed " + status + " " + reason;
    first.completeExceptionally(new IllegalStateException(ended));
    return null;
  }
}
