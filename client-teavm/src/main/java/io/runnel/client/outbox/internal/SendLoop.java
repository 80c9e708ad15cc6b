package io.runnel.client.outbox.internal;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.MutationError;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.Verdict;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The outbox's send loop: drain passes over the active principal's queue, and what the connection and the node's
 * answers do to them.
 *
 * <p>Design. A <em>pass</em> sends the head entry, waits for its answer and moves on: one pass at a time, numbered,
 * so an answer knows whether its pass is still the current one. A retry answer ends the pass and arms a timer
 * (exponential backoff, at least the node's {@code Retry-After}); a refusal fails its entry and ends the pass. When
 * the connection a pass began under drops, the pass ends at once and its in-flight entry is pending again; the late
 * answer of an ended pass still settles or fails its entry, but never sends the next one, so nothing is sent twice
 * by two passes. Once stopped, no pass starts and no timer is armed; answers still settle or fail their entries. A
 * pass starts only while this tab leads the queue ({@link Host#leads}): with several tabs open, one drains it. Two
 * small types hold where the loop is, beside its count of passes, its retry state and whether it stopped: the pass
 * ({@code Idle} or {@code Draining}, with the connection it began under) and the connection as the loop last heard of
 * it ({@code Down}, {@code Up}, or {@code Held} while the page's lists load).
 * Invariant: an entry is removed from its queue and from the store exactly once, by the first answer
 * that settles or fails it; every later answer for it only lets the current pass go on.
 */
final class SendLoop {

  /** What the loop needs of its outbox. */
  interface Host {
    /** The queue of the principal a node named, or null before one did (a remembered one is not sent). */
    @Nullable PrincipalQueue active();

    /** Tells the outbox's listeners, when its state changed. */
    void publish();

    /** Whether this tab holds the queue's lock, so that it, and no other tab, sends the queue. */
    boolean leads();

    /**
     * Entry {@code entry} of {@code q} ended with {@code outcome}: it left the queue and the store.
     *
     * @param write the answer's write digest, or null (always null for a failure)
     * @param lsn the answer's LSN, or null
     */
    void settled(PrincipalQueue q, Entry entry, MutationOutcome outcome, @Nullable String write, @Nullable String lsn);
  }

  private final HttpPort http;
  private final DurableStore store;
  private final JsonPort json;
  private final Scheduler scheduler;
  private final OptimisticWrites writes;
  private final Credentials credentials;
  private final Runnable beatSoon;
  private final String mutateUrl;
  private final long retentionMillis;
  private final long retryBaseMillis;
  private final long retryCapMillis;
  private final Host host;

  /** How many passes have started: the number of the latest ({@link Entry#sentInPass}). */
  private long passes;
  private Pass running = new Idle();
  private Link link = new Down(0);
  private boolean stopped;
  private int failures;
  private boolean networkFailed;
  private long notBefore;
  private Scheduler.@Nullable Cancellable timer;

  /** The connection as the loop last heard of it; a pass starts under it, and one begun online ends when it drops. */
  private sealed interface Link permits Down, Up, Held {}

  /**
   * Connecting, offline or closed, or nothing heard yet: a pass may start (its entries wait out the network), and goes
   * on once the connection is online.
   */
  private static final class Down implements Link {
    final long epoch;

    Down(long epoch) {
      this.epoch = epoch;
    }
  }

  /** Online: a pass begun online under an older connection ends. */
  private static final class Up implements Link {
    final long epoch;

    Up(long epoch) {
      this.epoch = epoch;
    }
  }

  /**
   * A connection is up but the page's lists are still loading ({@link #hold}): no pass starts, a pass already
   * running goes on. {@code up}: whether the loop had heard the connection online when the hold came.
   */
  private static final class Held implements Link {
    final long epoch;
    final boolean up;

    Held(long epoch, boolean up) {
      this.epoch = epoch;
      this.up = up;
    }
  }

  /** Whether a pass runs. */
  private sealed interface Pass permits Idle, Draining {}

  /** No pass runs. */
  private static final class Idle implements Pass {}

  /** Pass {@code number} runs, begun under connection {@code epoch}, online or not. */
  private static final class Draining implements Pass {
    final long number;
    final long epoch;
    final boolean online;

    Draining(long number, long epoch, boolean online) {
      this.number = number;
      this.epoch = epoch;
      this.online = online;
    }
  }

  SendLoop(OutboxBuilder b, Host host) {
    this.http = Objects.requireNonNull(b.http, "http");
    this.store = Objects.requireNonNull(b.store, "store");
    this.json = Objects.requireNonNull(b.json, "json");
    this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
    this.writes = Objects.requireNonNull(b.writes, "writes");
    this.credentials = b.credentials;
    this.beatSoon = b.beatSoon;
    String base = Objects.requireNonNull(b.baseUrl, "baseUrl");
    this.mutateUrl = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/mutate/";
    this.retentionMillis = b.retentionMillis;
    this.retryBaseMillis = b.retryBaseMillis;
    this.retryCapMillis = b.retryCapMillis;
    this.host = host;
  }

  /** The connection went online under {@code epoch}: a pass begun under an older one ends, and a new one starts. */
  void online(long epoch) {
    boolean fresh = !up(link) || epoch != epoch(link);
    if (running instanceof Draining d && d.online && d.epoch != epoch) {
      endPass();
    }
    link = new Up(epoch);
    if (fresh) {
      cancelTimer();
      host.publish();
      drain();
    }
  }

  /** The connection is connecting or offline at {@code epoch}: a pass begun online ends. */
  void lost(long epoch) {
    boolean wasUp = up(link);
    link = new Down(epoch);
    if (wasUp) {
      endPass();
      host.publish();
    }
  }

  /**
   * A connection is up but the page's lists are still loading: no pass starts until {@link #online} (they caught up)
   * or {@link #lost}; a pass already running goes on.
   */
  void hold() {
    if (!(link instanceof Held)) {
      link = new Held(epoch(link), up(link));
    }
  }

  /** The epoch ({@code ConnectionState.epoch}) of {@code l}'s connection. */
  private static long epoch(Link l) {
    return l instanceof Up u ? u.epoch : l instanceof Held h ? h.epoch : ((Down) l).epoch;
  }

  /** Whether the loop has heard {@code l}'s connection online. */
  private static boolean up(Link l) {
    return l instanceof Up || (l instanceof Held h && h.up);
  }

  /** Another principal signed in: the pass ends, the retry timer and the backoff are forgotten. */
  void reset() {
    endPass();
    cancelTimer();
    failures = 0;
    notBefore = 0;
  }

  /** Stops for good: the pass ends, the retry timer is cancelled (as on {@link #reset}), and no pass starts again. */
  void stop() {
    stopped = true;
    reset();
  }

  /**
   * Retries now when a retry timer waits out this loop's own backoff after a network failure (the page says the
   * network is back), never before a node's {@code Retry-After}; nothing otherwise.
   */
  void retryNow() {
    if (timer != null && networkFailed) {
      drain();
    }
  }

  /** Whether a retry timer is armed (a new call then waits for it). */
  boolean waiting() {
    return timer != null;
  }

  /** Whether the current pass has a request out for {@code e}. */
  boolean sending(Entry e) {
    return e.sentInPass != 0 && current(e.sentInPass);
  }

  /** Starts a pass now, unless one is running or the node asked to wait ({@code Retry-After}). */
  void drain() {
    PrincipalQueue q = host.active();
    if (stopped || link instanceof Held || q == null || !q.loaded || running instanceof Draining || !host.leads()) {
      return;
    }
    long now = scheduler.nowMillis();
    if (now < notBefore) {
      retryIn(notBefore - now);
      return;
    }
    cancelTimer();
    passes++;
    running = new Draining(passes, epoch(link), link instanceof Up);
    next(q);
  }

  /** Fails every entry past the retention at the head, then sends the head or ends the pass when none is left. */
  private void next(PrincipalQueue q) {
    long now = scheduler.nowMillis();
    while (!q.entries.isEmpty() && now - q.entries.get(0).createdAt > retentionMillis) {
      Entry old = q.entries.get(0);
      fail(q, old, abandoned(old.mutator, now - old.createdAt, retentionMillis));
    }
    if (q.entries.isEmpty()) {
      running = new Idle();
      failures = 0;
      host.publish();
      return;
    }
    send(q, q.entries.get(0), passes, false);
  }

  private void send(PrincipalQueue q, Entry e, long p, boolean refreshed) {
    e.sentInPass = p;
    host.publish();
    credentials.token(refreshed, token -> {
      if (!current(p)) {
        return;
      }
      if (q.entries.indexOf(e) < 0) {
        e.sentInPass = 0;
        next(q);
        return;
      }
      if (q == host.active()) {
        writes.sending(e.writeId);
      }
      http.send(request(e, token), outcome -> answered(q, e, p, refreshed, outcome));
    });
  }

  private HttpPort.Request request(Entry e, @Nullable String token) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Idempotency-Key", e.writeId);
    headers.put("Content-Type", "application/json");
    if (token != null) {
      headers.put("Authorization", "Bearer " + token);
    }
    return new HttpPort.Request("POST", mutateUrl + e.mutator, headers,
        json.write(JsonObject.builder().put("input", e.input).build()));
  }

  private void answered(PrincipalQueue q, Entry e, long p, boolean refreshed, HttpPort.Outcome outcome) {
    boolean wasCurrent = current(p);
    if (e.sentInPass == p) {
      e.sentInPass = 0;
    }
    switch (Verdict.of(outcome, json)) {
      case Verdict.Applied a -> {
        if (remove(q, e)) {
          failures = 0;
          String write = a.write();
          String lsn = a.lsn();
          if (q == host.active()) {
            if (write != null && lsn != null) {
              writes.answered(e.writeId, write, lsn);
            } else {
              writes.dropped(e.writeId);
            }
          }
          host.settled(q, e, new MutationOutcome.Applied(a.result()), write, lsn);
          if (!stopped) {
            beatSoon.run();
          }
        }
        goOn(q, p, wasCurrent);
      }
      case Verdict.RetryLater r -> {
        if (!wasCurrent) {
          return;
        }
        if (r.unauthorized() && !refreshed) {
          send(q, e, p, true);
          return;
        }
        endPass();
        failures++;
        networkFailed = outcome instanceof HttpPort.NetworkFailed;
        notBefore = scheduler.nowMillis() + r.retryAfterMillis();
        retryIn(Math.max(r.retryAfterMillis(), backoffMillis()));
        host.publish();
      }
      case Verdict.Refused f -> {
        if (q.entries.indexOf(e) >= 0) {
          failures = 0;
          if (q == host.active()) {
            endPass();
          }
          fail(q, e, f.error());
        } else {
          goOn(q, p, wasCurrent);
        }
      }
    }
  }

  /** After an answer that settled (or found settled) its entry: the pass it belongs to, if still current, goes on. */
  private void goOn(PrincipalQueue q, long p, boolean wasCurrent) {
    if (wasCurrent && current(p)) {
      next(q);
    } else {
      host.publish();
    }
  }

  private void fail(PrincipalQueue q, Entry e, MutationError error) {
    remove(q, e);
    if (q == host.active()) {
      writes.dropped(e.writeId);
    }
    q.failed.add(new OutboxState.FailedWrite(e.writeId, e.mutator, error));
    host.publish();
    host.settled(q, e, new MutationOutcome.Failed(error), null, null);
  }

  private boolean remove(PrincipalQueue q, Entry e) {
    boolean removed = q.entries.remove(e);
    if (removed) {
      store.remove(q.key(e));
    }
    return removed;
  }

  private boolean current(long p) {
    return running instanceof Draining d && d.number == p;
  }

  /** Ends the current pass: its in-flight entry is pending again, and its late answers send nothing more. */
  private void endPass() {
    running = new Idle();
    PrincipalQueue q = host.active();
    if (q != null) {
      for (Entry e : q.entries) {
        e.sentInPass = 0;
      }
    }
  }

  private long backoffMillis() {
    long delay = retryBaseMillis;
    for (int i = 1; i < failures && delay < retryCapMillis; i++) {
      delay *= 2;
    }
    return Math.min(retryCapMillis, delay);
  }

  private void retryIn(long delayMillis) {
    cancelTimer();
    timer = scheduler.schedule(delayMillis, () -> {
      timer = null;
      drain();
    });
  }

  private void cancelTimer() {
    Scheduler.Cancellable t = timer;
    timer = null;
    if (t != null) {
      t.cancel();
    }
  }

  /** An outbox entry older than the idempotency retention of {@code retentionMillis}: failed, never replayed. */
  private static MutationError abandoned(String mutator, long ageMillis, long retentionMillis) {
    return new MutationError(ErrorCode.X_OFFLINE_QUEUE_ABANDONED.name(),
        ErrorCode.X_OFFLINE_QUEUE_ABANDONED.httpStatus(),
        "The call to '" + mutator + "' waited offline " + ageMillis / 1000 + " s, longer than the node keeps "
            + "idempotency keys (" + retentionMillis / 1000 + " s), so replaying it could run it twice.",
        "Check whether the change reached the server and make it again if not.");
  }
}
