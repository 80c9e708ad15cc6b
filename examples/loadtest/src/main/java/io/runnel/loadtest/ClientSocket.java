package io.runnel.loadtest;

import java.net.http.WebSocket;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One benchmark client socket (a JDK {@link WebSocket} listener): it completes {@link #first} with the first whole
 * text frame (the subscription's snapshot, or the bare route's echo), then records for every frame of kind
 * {@code patch} the pair (its {@code field} number, the receipt's {@link System#nanoTime()}) and its length.
 */
final class ClientSocket implements WebSocket.Listener {

  final int tenant;
  final CompletableFuture<String> first = new CompletableFuture<>();
  private final String field;
  private StringBuilder partial;
  private long[] pairs = new long[64];
  private int size;
  private long chars;
  volatile String ended;

  ClientSocket(int tenant, String field) {
    this.tenant = tenant;
    this.field = field;
  }

  @Override
  public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
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
    if (size + 2 > pairs.length) {
      pairs = Arrays.copyOf(pairs, pairs.length * 2);
    }
    pairs[size++] = n;
    pairs[size++] = now;
    chars += s.length();
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
  public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
    ended = "closed " + status + " " + reason;
    first.completeExceptionally(new IllegalStateException(ended));
    return null;
  }
}
