package io.runnel.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The tests' client of a sync node's WebSocket ({@code /v1/sync}, {@code docs/protocol.md}), on the JDK's WebSocket
 * client: it joins a message's fragments into one text frame, parses it with the function it was opened with, and
 * either queues it for {@link #next()} or hands it to a handler on the socket's thread. It records what ended the
 * socket (an error, or the close the node sent), so a wait that fails says whether the socket was still open.
 *
 * <p>A test that must send bytes no WebSocket client would (a bad mask, a torn frame) uses a raw socket instead.
 *
 * <pre>{@code
 * ProtocolClient<JsonObject> ada = ProtocolClient.to(node.port()).bearer(token)
 *     .open(text -> (JsonObject) Json.parse(text));
 * ada.send("{\"t\":\"hello\",\"v\":1}");
 * JsonObject hello = ada.next();
 * ada.close();
 * }</pre>
 *
 * @param <F> what a frame is parsed into
 */
public final class ProtocolClient<F> implements AutoCloseable {

  /** How long {@link #next()} and the other waits of this client wait, and how long an upgrade may take. */
  public static final Duration WAIT = Duration.ofSeconds(30);

  /**
   * One received frame.
   *
   * @param text the message's text, its fragments joined
   * @param frame what {@code text} parsed into
   * @param receivedAt when its last fragment arrived, in {@link System#nanoTime()} units
   * @param <F> what a frame is parsed into
   */
  public record Received<F>(String text, F frame, long receivedAt) {}

  private final Function<String, ? extends F> parse;
  private final @Nullable Consumer<? super Received<F>> handler;
  private final BlockingQueue<Received<F>> frames = new LinkedBlockingQueue<>();
  private final StringBuilder partial = new StringBuilder();
  private final CompletableFuture<Integer> closedByNode = new CompletableFuture<>();
  private volatile @Nullable String ended;
  private @Nullable WebSocket ws;

  private ProtocolClient(Function<String, ? extends F> parse, @Nullable Consumer<? super Received<F>> handler) {
    this.parse = parse;
    this.handler = handler;
  }

  /** A client of {@code /v1/sync} on {@code 127.0.0.1:port}; set its headers, then open it. */
  public static Opening to(int port) {
    return new Opening(port);
  }

  /** How a client is opened: the path it upgrades on and the headers it sends. */
  public static final class Opening {
    private final int port;
    private String target = "/v1/sync";
    private final Map<String, String> headers = new LinkedHashMap<>();

    private Opening(int port) {
      this.port = port;
    }

    /** Upgrades on {@code pathAndQuery} (for instance {@code /v1/sync?ticket=…}) instead of {@code /v1/sync}. */
    public Opening target(String pathAndQuery) {
      if (!pathAndQuery.startsWith("/")) {
        throw new IllegalArgumentException("a target starts with '/': " + pathAndQuery);
      }
      this.target = pathAndQuery;
      return this;
    }

    /** Sends {@code name: value} with the upgrade request. */
    public Opening header(String name, String value) {
      headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Sends each of {@code headers} with the upgrade request. */
    public Opening headers(Map<String, String> headers) {
      headers.forEach(this::header);
      return this;
    }

    /** Sends {@code Authorization: Bearer <token>} with the upgrade request. */
    public Opening bearer(String token) {
      return header("Authorization", "Bearer " + token);
    }

    /**
     * Upgrades, queueing each frame parsed by {@code parse} for {@link #next()}.
     *
     * @throws java.util.concurrent.CompletionException when the upgrade fails (a refusal's status is in its cause)
     *     or takes longer than {@link #WAIT}
     */
    public <F> ProtocolClient<F> open(Function<String, ? extends F> parse) {
      return open(new ProtocolClient<>(Objects.requireNonNull(parse, "parse"), null));
    }

    /**
     * Upgrades, handing each frame parsed by {@code parse} to {@code handler} on the socket's thread, in order, instead
     * of queueing it: for a client that keeps state as frames arrive (a list rebuilt from patches). The next frame is
     * requested once the handler returns.
     *
     * @throws java.util.concurrent.CompletionException when the upgrade fails or takes longer than {@link #WAIT}
     */
    public <F> ProtocolClient<F> open(Function<String, ? extends F> parse, Consumer<? super Received<F>> handler) {
      return open(new ProtocolClient<>(Objects.requireNonNull(parse, "parse"),
          Objects.requireNonNull(handler, "handler")));
    }

    private <F> ProtocolClient<F> open(ProtocolClient<F> client) {
      WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(WAIT);
      headers.forEach(b::header);
      client.ws = b.buildAsync(URI.create("ws://127.0.0.1:" + port + target), client.listener())
          .orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
      return client;
    }
  }

  private WebSocket.Listener listener() {
    return new WebSocket.Listener() {
      @Override
      public @Nullable CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
          String text = partial.toString();
          partial.setLength(0);
          Received<F> r = new Received<>(text, parse.apply(text), System.nanoTime());
          Consumer<? super Received<F>> h = handler;
          if (h == null) {
            frames.add(r);
          } else {
            h.accept(r);
          }
        }
        webSocket.request(1);
        return null;
      }

      @Override
      public void onError(WebSocket webSocket, Throwable error) {
        ended = "error: " + error;
        closedByNode.completeExceptionally(error);
      }

      @Override
      public @Nullable CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        ended = "closed by the node: " + statusCode + " " + reason;
        closedByNode.complete(statusCode);
        return null;
      }
    };
  }

  private WebSocket socket() {
    return Objects.requireNonNull(ws, "opened");
  }

  /**
   * The next frame, waiting up to {@link #WAIT}.
   *
   * @throws AssertionError when none comes, naming what ended the socket if anything
   * @throws IllegalStateException when frames go to a handler
   */
  public F next() throws InterruptedException {
    return nextReceived().frame();
  }

  /**
   * As {@link #next()}, with the frame's text and when it arrived.
   *
   * @throws AssertionError when none comes within {@link #WAIT}
   * @throws IllegalStateException when frames go to a handler
   */
  public Received<F> nextReceived() throws InterruptedException {
    Received<F> r = poll(WAIT);
    if (r == null) {
      throw new AssertionError("no frame arrived within " + WAIT.toSeconds() + " s (" + state() + ")");
    }
    return r;
  }

  /**
   * The next frame within {@code within}, or null.
   *
   * @throws IllegalStateException when frames go to a handler
   */
  public @Nullable Received<F> poll(Duration within) throws InterruptedException {
    if (handler != null) {
      throw new IllegalStateException("this client hands its frames to a handler; none is queued");
    }
    return frames.poll(within.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * Every frame until one matching {@code last}, that one included, waiting up to {@link #WAIT} for each.
   *
   * @throws AssertionError when a wait passes without a frame, listing those received so far
   */
  public List<F> until(Predicate<? super F> last) throws InterruptedException {
    List<F> out = new ArrayList<>();
    while (true) {
      Received<F> r = poll(WAIT);
      if (r == null) {
        throw new AssertionError("no frame within " + WAIT.toSeconds() + " s (" + state() + "); received so far: "
            + out);
      }
      out.add(r.frame());
      if (last.test(r.frame())) {
        return out;
      }
    }
  }

  /** Sends one text frame, waiting until it is written. */
  public void send(String text) {
    socket().sendText(text, true).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  /** Sends one binary frame, waiting until it is written. */
  public void sendBinary(byte[] bytes) {
    socket().sendBinary(ByteBuffer.wrap(bytes), true).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
  }

  /** What ended the socket from this side (an error, or the close the node sent), or null while it is open. */
  public @Nullable String ended() {
    return ended;
  }

  /**
   * Completes with the status code of the close frame the node sends (RFC 6455 section 7.4), or exceptionally with
   * the error that ended the socket.
   */
  public CompletableFuture<Integer> closedByNode() {
    return closedByNode;
  }

  /** Drops the connection without a close frame, as a client that loses its network does. */
  public void abort() {
    socket().abort();
  }

  /**
   * Sends a close frame with {@code code} and {@code reason}, waiting until it is written; nothing when the socket has
   * already ended (the node closed it, or it failed), so a test's cleanup never hides the failure that ended it.
   */
  public void close(int code, String reason) {
    if (ended == null) {
      socket().sendClose(code, reason).orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();
    }
  }

  /** Sends a close frame with 1000 (normal closure), waiting until it is written; nothing once the socket ended. */
  @Override
  public void close() {
    close(WebSocket.NORMAL_CLOSURE, "done");
  }

  private String state() {
    String e = ended;
    return "socket " + (e == null ? "open" : e) + ", " + partial.length() + " chars of an unfinished message";
  }
}
