package io.runnel.sync;

import io.runnel.client.port.DurableStore;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.Ids;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.SocketPort;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The ports of {@code io.runnel.client.RunnelClient} on the JVM against a real node, as a browser page in cookie mode
 * has them: one thread is the page's (every callback runs on it, {@link #onClient} runs the test's calls there), the
 * socket is a {@link RawSocket} whose receive buffer can be shrunk and whose reading the test can {@link #pause()},
 * HTTP is {@code java.net.http}, and both send the {@code runnel_session} cookie as the browser would. The durable
 * store is a map.
 */
final class JvmClientPorts implements AutoCloseable {

  private final int port;
  private final String cookie;
  private final int receiveBuffer;
  private final ScheduledExecutorService page = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "client-page");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient http = HttpClient.newHttpClient();
  private final Object gate = new Object();
  private boolean paused;
  private final List<JvmSocket> sockets = new CopyOnWriteArrayList<>();

  /**
   * Ports for a page of the node on {@code port} signed in with session token {@code token}; a positive
   * {@code receiveBuffer} shrinks each socket's receive buffer.
   */
  JvmClientPorts(int port, String token, int receiveBuffer) {
    this.port = port;
    this.cookie = "runnel_session=" + token;
    this.receiveBuffer = receiveBuffer;
  }

  /** The node's origin, {@code http://127.0.0.1:<port>}. */
  String origin() {
    return "http://127.0.0.1:" + port;
  }

  /** Runs {@code task} on the page's thread and answers its result (failing after 30 s). */
  <T> T onClient(Callable<T> task) throws Exception {
    return page.submit(task).get(30, TimeUnit.SECONDS);
  }

  /** The socket stops reading: the node's frames pile up in the kernel's buffers, then in its outbound queue. */
  void pause() {
    synchronized (gate) {
      paused = true;
    }
  }

  /** The socket reads again. */
  void resume() {
    synchronized (gate) {
      paused = false;
      gate.notifyAll();
    }
  }

  private void awaitResumed() throws InterruptedException {
    synchronized (gate) {
      while (paused) {
        gate.wait();
      }
    }
  }

  /** The page's timers, on its thread. */
  Scheduler scheduler() {
    return new Scheduler() {
      @Override
      public Cancellable schedule(long delayMillis, Runnable task) {
        if (delayMillis < 0) {
          throw new IllegalArgumentException("delay " + delayMillis);
        }
        ScheduledFuture<?> f = page.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        return () -> f.cancel(false);
      }

      @Override
      public long nowMillis() {
        return System.currentTimeMillis();
      }
    };
  }

  /** Random UUIDs. */
  Ids ids() {
    return () -> UUID.randomUUID().toString();
  }

  /** A durable store in memory: every write is stored, a list answers at once. */
  DurableStore durable() {
    Map<String, String> entries = new ConcurrentHashMap<>();
    return new DurableStore() {
      @Override
      public boolean put(String key, String value) {
        entries.put(key, value);
        return true;
      }

      @Override
      public void remove(String key) {
        entries.remove(key);
      }

      @Override
      public void list(String prefix, Consumer<Map<String, String>> done) {
        Map<String, String> out = new TreeMap<>();
        entries.forEach((k, v) -> {
          if (k.startsWith(prefix)) {
            out.put(k, v);
          }
        });
        done.accept(out);
      }
    };
  }

  /** HTTP over {@code java.net.http}, the session cookie on every request, answers on the page's thread. */
  HttpPort http() {
    return (request, done) -> {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(request.url())).timeout(Duration.ofSeconds(30))
          .header("Cookie", cookie).method(request.method(), request.body() == null
              ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(request.body()));
      request.headers().forEach(b::header);
      http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> page.execute(() ->
          done.accept(e != null ? new HttpPort.NetworkFailed(String.valueOf(e)) : new HttpPort.Answered(
              r.statusCode(), r.body(), r.headers().firstValueAsLong("Retry-After").orElse(-1)))));
    };
  }

  /** Sockets to {@code /v1/sync} over {@link RawSocket}, each read by a thread of its own. */
  SocketPort sockets() {
    return (url, listener) -> {
      if (!url.equals("ws://127.0.0.1:" + port + "/v1/sync")) {
        throw new AssertionError("a page in cookie mode opens ws://127.0.0.1:" + port + "/v1/sync, not " + url);
      }
      JvmSocket s = new JvmSocket(listener);
      sockets.add(s);
      Thread reader = new Thread(s::run, "client-socket");
      reader.setDaemon(true);
      reader.start();
      return s;
    };
  }

  @Override
  public void close() {
    resume();
    for (JvmSocket s : sockets) {
      // Ended first: the reader that the shut wakes hands the page nothing more, so nothing meets a shut-down page.
      s.ended.set(true);
      s.shut();
    }
    page.shutdownNow();
  }

  /** One socket: upgraded and read on its own thread, every event handed to the page's thread. */
  private final class JvmSocket implements SocketPort.Connection {
    private final SocketPort.Listener listener;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile @Nullable RawSocket raw;
    private volatile int closingCode = 1006;

    JvmSocket(SocketPort.Listener listener) {
      this.listener = listener;
    }

    void run() {
      try {
        RawSocket.Upgrade up = RawSocket.attempt(port, Map.of("Cookie", cookie), receiveBuffer);
        RawSocket s = up.socket();
        if (s == null) {
          end(1006, "the upgrade was refused: " + up.status());
          return;
        }
        s.readTimeout(Duration.ZERO);
        raw = s;
        if (ended.get()) {
          // The ports closed while this upgrade was on its way: close stopped before it could see the socket.
          shut();
          return;
        }
        page.execute(listener::opened);
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        while (true) {
          awaitResumed();
          RawSocket.Frame f = s.readFrame();
          if (f.opcode() == RawSocket.CLOSE) {
            end(f.closeCode(), "closed by the node");
            return;
          }
          if (f.opcode() == RawSocket.TEXT || f.opcode() == RawSocket.CONTINUATION) {
            message.write(f.payload());
            if (f.fin()) {
              String text = message.toString(StandardCharsets.UTF_8);
              message.reset();
              page.execute(() -> listener.text(text));
            }
          }
        }
      } catch (IOException | InterruptedException e) {
        end(closingCode, String.valueOf(e));
      } catch (RejectedExecutionException e) {
        // The ports closed while a frame was on its way to the page: nobody listens any more.
        shut();
      }
    }

    private void end(int code, String reason) {
      if (ended.compareAndSet(false, true)) {
        shut();
        page.execute(() -> listener.closed(code, reason));
      }
    }

    void shut() {
      RawSocket s = raw;
      if (s != null) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }

    @Override
    public void send(String text) {
      RawSocket s = raw;
      if (s != null && !ended.get()) {
        try {
          s.send(text);
        } catch (IOException e) {
          end(1006, String.valueOf(e));
        }
      }
    }

    @Override
    public void close(int code, String reason) {
      closingCode = code;
      RawSocket s = raw;
      if (s != null) {
        try {
          s.write(RawSocket.frame(RawSocket.CLOSE, true, new byte[] {(byte) (code >> 8), (byte) code}));
        } catch (IOException ignored) {
          // the reader sees the socket end either way
        }
      }
      end(code, reason);
    }
  }
}
