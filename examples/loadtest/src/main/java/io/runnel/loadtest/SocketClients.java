package io.runnel.loadtest;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A client JVM of the socket scenarios: it holds thousands of sockets on one JDK {@link HttpClient} and answers
 * commands read line by line from its standard input, one line each on standard output:
 *
 * <ul>
 *   <li>{@code open <n>}: opens {@code n} more sockets (socket {@code i} of this JVM's range belongs to tenant
 *       {@code i % tenants}), each subscribing and waiting for its first frame; a socket whose upgrade or subscribe
 *       fails tries again as the Runnel client does (the same backoff as {@code storm}), at most
 *       {@link #OPEN_ATTEMPTS} times in all; answers {@code opened <n> <nanos> <failures> <first failure>
 *       <retried>}: the sockets that never subscribed, the first failure seen, and the sockets that needed a retry.
 *       Only the subscribed sockets take part in the later commands;
 *   <li>{@code fanout <postgres port> <changes/s> <seconds>}: the writer of scenario 3, in this JVM so its clock is
 *       the clients' clock: one autocommit {@code INSERT} into {@code feed} at a time on an absolute schedule, its
 *       commit time taken right after the statement returns; answers {@link Receipts#result} with latencies from
 *       commit to receipt, matched by the row's {@code seq};
 *   <li>{@code flood <postgres port> <writers> <seconds>}: the same with that many connections writing back to
 *       back for that long ({@link FeedWriter}); answers {@link Receipts#result};
 *   <li>{@code policy <postgres port> <changes/s> <seconds>}: scenario 4's writer, paced as {@code fanout}, into
 *       {@code notes} ({@link FeedWriter#notes}: one row in two for everyone, the others each for one subscriber);
 *       answers {@link Receipts#result};
 *   <li>{@code storm <postgres port> <changes/s> <lead seconds> <most seconds>}: scenario 5: a paced writer into
 *       {@code feed} starts; after the lead every socket is cut at once ({@link WebSocket#abort}, as a network or a
 *       deploy drops them) and reconnects as the Runnel client does (equal-jitter backoff from 500 ms to 4 s; a
 *       browser cannot read a refused upgrade's {@code Retry-After}), subscribing with its cursor and held keys;
 *       answers {@code stormed <sockets> <delta> <snapshot> <failed> <attempts> <p50 nanos> <p99 nanos>
 *       <all live nanos> <upgraded p50 nanos> <upgraded p99 nanos>}: the first frame after each resubscribe
 *       ({@code patch}: resumed as a delta, {@code snapshot}), reconnect attempts in all, and the time from the cut
 *       until each was live and until its upgrade completed;
 *   <li>{@code listen <seconds>}: scenario 6, frames from the bare route's {@code blast}; answers
 *       {@code listening} once it forgot earlier frames, then {@link Receipts#result}
 *       with latencies from the frame's {@code sent} stamp (the same machine's monotonic clock) to receipt;
 *   <li>{@code quit}.
 * </ul>
 *
 * <p>Arguments: {@code <runnel|bare> <port> <first socket index> <tenants> [<query> [track]]}. A Runnel socket signs
 * in as user {@code u<index>} of org {@code t<tenant>} (an HS256 JWT) and subscribes to {@code <query>} (default
 * {@code feed}); with {@code track} each keeps its cursor and keys to resume. A bare one sends {@code sub <tenant>}
 * and waits for its echo.
 */
public final class SocketClients {

  private static final int IN_FLIGHT = 64;
  /** How many times {@code open} tries one socket before it counts it as failed. */
  static final int OPEN_ATTEMPTS = 6;

  private final boolean runnel;
  private final int port;
  private final int tenants;
  private final String query;
  private final boolean tracking;
  private int next;
  private final List<ClientSocket> sockets = new ArrayList<>();
  private final List<WebSocket> handles = new ArrayList<>();
  private final List<String> users = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private final MACSigner signer;
  private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "open-retries");
    t.setDaemon(true);
    return t;
  });
  private final Random backoffRandom = new Random(5);

  private SocketClients(boolean runnel, int port, int first, int tenants, String query, boolean tracking)
      throws JOSEException {
    this.runnel = runnel;
    this.port = port;
    this.next = first;
    this.tenants = tenants;
    this.query = query;
    this.tracking = tracking;
    this.signer = new MACSigner(RunnelNode.SECRET.getBytes(StandardCharsets.UTF_8));
  }

  /** The client's side of the protocol above. @throws Exception when a command cannot run */
  public static void main(String[] args) throws Exception {
    SocketClients c = new SocketClients(args[0].equals("runnel"), Integer.parseInt(args[1]),
        Integer.parseInt(args[2]), Integer.parseInt(args[3]), args.length > 4 ? args[4] : "feed",
        args.length > 5 && args[5].equals("track"));
    System.out.println("ready");
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] w = line.trim().split(" ");
      switch (w[0]) {
        case "open" -> System.out.println(c.open(Integer.parseInt(w[1])));
        case "fanout" -> System.out.println(c.fanout(Integer.parseInt(w[1]), Double.parseDouble(w[2]),
            Double.parseDouble(w[3]), 1, false));
        case "flood" -> System.out.println(c.fanout(Integer.parseInt(w[1]), 0, Double.parseDouble(w[3]),
            Integer.parseInt(w[2]), false));
        case "policy" -> System.out.println(c.fanout(Integer.parseInt(w[1]), Double.parseDouble(w[2]),
            Double.parseDouble(w[3]), 1, true));
        case "storm" -> System.out.println(c.storm(Integer.parseInt(w[1]), Double.parseDouble(w[2]),
            Double.parseDouble(w[3]), Double.parseDouble(w[4])));
        case "listen" -> System.out.println(c.listen(Double.parseDouble(w[1])));
        case "quit" -> {
          System.out.println("bye");
          System.out.flush();
          System.exit(0);
        }
        default -> System.out.println("error unknown command " + line);
      }
      System.out.flush();
    }
    System.exit(0);
  }

  private String open(int n) throws Exception {
    Semaphore slots = new Semaphore(IN_FLIGHT);
    AtomicReference<String> firstFailure = new AtomicReference<>("-");
    AtomicInteger retried = new AtomicInteger();
    List<CompletableFuture<ClientSocket>> all = new ArrayList<>();
    long t0 = System.nanoTime();
    for (int k = 0; k < n; k++) {
      int index = next++;
      users.add("u" + index);
      slots.acquire();
      all.add(openOne(index, index % tenants, 0, slots, firstFailure, retried));
    }
    int failures = 0;
    for (var f : all) {
      ClientSocket s = f.join();
      if (s == null) {
        failures++;
      } else {
        sockets.add(s);
      }
    }
    long nanos = System.nanoTime() - t0;
    String ff = Objects.requireNonNull(firstFailure.get(), "starts as \"-\"");
    return "opened " + n + " " + nanos + " " + failures + " " + ff.substring(0, Math.min(ff.length(), 300)) + " "
        + retried.get();
  }

  /**
   * Opens socket {@code index} (holding one of {@code slots}, released when this attempt ends) and subscribes it;
   * an attempt whose upgrade fails, or whose first frame is not a snapshot, is tried again after the client's
   * backoff for {@code failures + 1}, up to {@link #OPEN_ATTEMPTS} in all. Completes with the subscribed socket, or
   * null when it gave up.
   */
  // A socket's outcome is the future this returns; the sends and retry timers inside report through it.
  @SuppressWarnings("FutureReturnValueIgnored")
  private CompletableFuture<ClientSocket> openOne(int index, int tenant, int failures,
      Semaphore slots, AtomicReference<String> firstFailure, AtomicInteger retried) {
    ClientSocket s = new ClientSocket(tenant, runnel ? "seq" : "sent", tracking);
    WebSocket.Builder b = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(60));
    if (runnel) {
      try {
        b.header("Authorization", "Bearer " + token("u" + index, "t" + tenant));
      } catch (JOSEException e) {
        throw new IllegalStateException(e);
      }
    }
    AtomicReference<WebSocket> handle = new AtomicReference<>();
    return b.buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/sync"), s).thenCompose(ws -> {
      handle.set(ws);
      ws.sendText(runnel ? sub(null) : "sub " + tenant, true);
      return s.first;
    }).orTimeout(120, TimeUnit.SECONDS).handle((frame, error) -> {
      slots.release();
      if (error == null && (!runnel || frame.startsWith("{\"t\":\"snapshot\""))) {
        synchronized (handles) {
          handles.add(handle.get());
        }
        return CompletableFuture.completedFuture(s);
      }
      firstFailure.compareAndSet("-", (error != null ? error.toString() : frame).replace(' ', '_').replace('\n', '_'));
      WebSocket ws = handle.get();
      if (ws != null) {
        ws.abort();
      }
      if (failures + 1 >= OPEN_ATTEMPTS) {
        return CompletableFuture.<ClientSocket>completedFuture(null);
      }
      if (failures == 0) {
        retried.incrementAndGet();
      }
      CompletableFuture<ClientSocket> again = new CompletableFuture<>();
      retries.schedule(() -> {
        slots.acquireUninterruptibly();
        openOne(index, tenant, failures + 1, slots, firstFailure, retried).whenComplete((r, e) -> again.complete(r));
      }, backoffMillis(failures), TimeUnit.MILLISECONDS);
      return again;
    }).thenCompose(f -> f);
  }

  /**
   * The Runnel client's reconnect delay after {@code failures} failures ({@code Backoff.DEFAULT}): the cap 500 ms
   * doubling to 4 s, the delay half the cap plus a random share of the other half.
   */
  private long backoffMillis(int failures) {
    long cap = Math.min(4_000, 500L << Math.min(failures, 4));
    synchronized (backoffRandom) {
      return cap / 2 + (long) (backoffRandom.nextDouble() * (cap - cap / 2));
    }
  }

  /** The {@code sub} frame for this JVM's query, resuming from {@code cursor} (a cursor member) when not null. */
  private String sub(@Nullable String cursor) {
    return "{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"" + query + "\",\"in\":{}"
        + (cursor == null ? "" : ",\"cursor\":" + cursor) + "}";
  }

  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  private String token(String user, String org) throws JOSEException {
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), new JWTClaimsSet.Builder().subject(user)
        .claim("org_id", org).expirationTime(new Date(System.currentTimeMillis() + 24 * 3_600_000L)).build());
    jwt.sign(signer);
    return jwt.serialize();
  }

  private String fanout(int pgPort, double rate, double seconds, int writers, boolean notes) throws Exception {
    sockets.forEach(ClientSocket::drain);
    sockets.forEach(ClientSocket::drainChars);
    FeedWriter.Target target = notes ? FeedWriter.notes(users.toArray(String[]::new))
        : FeedWriter.feed(tenants, perTenant());
    FeedWriter.Written w = FeedWriter.write(pgPort, target, rate, seconds, writers);
    settle(w.expected(), 30);
    Receipts.Latency latency = w.from(w.committed());
    if (rate > 0) {
      Receipts.bySecond(sockets, w.committed(), w.t0(), w.base(), latency);
    }
    return Receipts.result(sockets, w.changes(), w.nanos(), w.expected(), latency, w.from(w.sent()));
  }


  /**
   * Scenario 5: cuts every socket at once while a paced writer runs, reconnects each as the Runnel client does
   * (the equal-jitter backoff of the client's {@code Backoff.DEFAULT}: the cap 500 ms doubling to 4 s, the delay half
   * the cap plus a random share of the other half, the first one before the first attempt), resubscribes with its
   * cursor and keys, and times each until its first frame.
   */
  private String storm(int pgPort, double rate, double lead, double most) throws Exception {
    sockets.forEach(ClientSocket::drain);
    sockets.forEach(ClientSocket::drainChars);
    AtomicReference<Exception> writerFailure = new AtomicReference<>();
    Thread writer = Thread.ofPlatform().name("storm-writer").start(() -> {
      try {
        FeedWriter.write(pgPort, FeedWriter.feed(tenants, perTenant()), rate, lead + 5, 1);
      } catch (Exception e) {
        writerFailure.set(e);
      }
    });
    TimeUnit.NANOSECONDS.sleep((long) (lead * 1e9));
    List<WebSocket> old;
    synchronized (handles) {
      old = new ArrayList<>(handles);
      handles.clear();
    }
    Storm storm = new Storm(sockets);
    for (WebSocket ws : old) {
      ws.abort();
    }
    for (int i = 0; i < sockets.size(); i++) {
      storm.reconnect(i, 0);
    }
    boolean all = storm.settled.await((long) (most * 1e9), TimeUnit.NANOSECONDS);
    storm.timers.shutdownNow();
    writer.join();
    if (writerFailure.get() != null) {
      throw writerFailure.get();
    }
    sockets.clear();
    sockets.addAll(List.of(storm.resumed));
    return storm.result(all);
  }

  /**
   * One storm's reconnects: socket {@code i} of the storm is {@link #resumed}{@code [i]} (its last attempt's
   * listener), and when it came back, how, from the cut (nanos).
   */
  private final class Storm {
    final ClientSocket[] resumed;
    final long[] live;
    final long[] upgraded;
    final String[] kind;
    final CountDownLatch settled;
    final AtomicInteger attempts = new AtomicInteger();
    final ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
    final long cut = System.nanoTime();

    Storm(List<ClientSocket> from) {
      resumed = from.toArray(ClientSocket[]::new);
      live = new long[resumed.length];
      upgraded = new long[resumed.length];
      kind = new String[resumed.length];
      settled = new CountDownLatch(resumed.length);
    }

    /** Schedules socket {@code i}'s next attempt after the client's backoff for {@code failures} failures so far. */
    // Each attempt reports through the storm's counters, not through the timer's future.
    @SuppressWarnings("FutureReturnValueIgnored")
    void reconnect(int i, int failures) {
      long delay = backoffMillis(failures);
      try {
        timers.schedule(() -> attempt(i, failures), delay, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // the storm's time is up: counted as not live
      }
    }

    // Each attempt reports through the storm's counters, not through the socket's futures.
    @SuppressWarnings("FutureReturnValueIgnored")
    private void attempt(int i, int failures) {
      attempts.incrementAndGet();
      // A listener of its own for each attempt (one whose handshake failed is never used again).
      ClientSocket r = ClientSocket.resuming(resumed[i]);
      WebSocket.Builder b = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30));
      try {
        b.header("Authorization", "Bearer " + token(users.get(i), "t" + r.tenant));
      } catch (JOSEException e) {
        throw new IllegalStateException(e);
      }
      b.buildAsync(URI.create("ws://127.0.0.1:" + port + "/v1/sync"), r).whenComplete((ws, error) -> {
        if (error != null) {
          reconnect(i, failures + 1);
          return;
        }
        upgraded[i] = System.nanoTime();
        resumed[i] = r;
        synchronized (handles) {
          handles.add(ws);
        }
        ws.sendText(sub(r.resumeCursor()), true);
        r.first.whenComplete((frame, failure) -> {
          String k = failure != null ? "failed" : frame.startsWith("{\"t\":\"patch\"") ? "patch"
              : frame.startsWith("{\"t\":\"snapshot\"") ? "snapshot" : "failed";
          if (k.equals("failed")) {
            // Closed (an admission refusal after the upgrade, 1013) or refused: the client reconnects, as this does.
            ws.abort();
            reconnect(i, failures + 1);
            return;
          }
          live[i] = System.nanoTime();
          kind[i] = k;
          settled.countDown();
        });
      });
    }

    /** The {@code stormed} line ({@code all}: every socket came back in time). */
    String result(boolean all) {
      int n = resumed.length;
      int delta = 0;
      int snapshot = 0;
      int failed = 0;
      long[] times = new long[n];
      long[] upgrades = new long[n];
      int t = 0;
      long allLive = 0;
      for (int i = 0; i < n; i++) {
        String k = kind[i];
        if (k == null || k.equals("failed")) {
          failed++;
          continue;
        }
        if (k.equals("patch")) {
          delta++;
        } else {
          snapshot++;
        }
        upgrades[t] = upgraded[i] - cut;
        times[t++] = live[i] - cut;
        allLive = Math.max(allLive, live[i] - cut);
      }
      long[] samples = Arrays.copyOf(times, t);
      long[] up = Arrays.copyOf(upgrades, t);
      return "stormed " + n + " " + delta + " " + snapshot + " " + failed + " " + attempts.get() + " "
          + percentile(samples, 50) + " " + percentile(samples, 99) + " " + (all && failed == 0 ? allLive : -1) + " "
          + percentile(up, 50) + " " + percentile(up, 99);
    }

    private static long percentile(long[] samples, double p) {
      return samples.length == 0 ? -1 : Latencies.percentile(samples, p);
    }
  }

  private String listen(double seconds) throws InterruptedException {
    sockets.forEach(ClientSocket::drain);
    sockets.forEach(ClientSocket::drainChars);
    System.out.println("listening");
    System.out.flush();
    long t0 = System.nanoTime();
    TimeUnit.NANOSECONDS.sleep((long) (seconds * 1e9));
    settle(Long.MAX_VALUE, 600);
    Receipts.Latency fromStamp = (sent, receipt) -> receipt - sent;
    return Receipts.result(sockets, -1, System.nanoTime() - t0, -1, fromStamp, fromStamp);
  }

  /** Waits until every expected frame arrived, or nothing arrived for 2 s, or {@code most} seconds passed. */
  private void settle(long expected, long most) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(most);
    long last = -1;
    long quietSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      long n = 0;
      for (ClientSocket s : sockets) {
        n += s.count();
      }
      if (n >= expected) {
        return;
      }
      if (n != last) {
        last = n;
        quietSince = System.nanoTime();
      } else if (System.nanoTime() - quietSince > TimeUnit.SECONDS.toNanos(2)) {
        return;
      }
      Thread.sleep(50);
    }
  }

  private int[] perTenant() {
    int[] n = new int[tenants];
    sockets.forEach(s -> n[s.tenant]++);
    return n;
  }

}
