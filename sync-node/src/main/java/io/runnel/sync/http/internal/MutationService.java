package io.runnel.sync.http.internal;

import io.runnel.dsl.Actor;
import io.runnel.dsl.server.MutationContext;
import io.runnel.dsl.server.Mutator;
import io.runnel.dsl.server.MutatorRefusedException;
import io.runnel.dsl.server.QueryHash;
import io.runnel.protocol.Lsn;
import io.runnel.time.Sleeper;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Runs mutator calls exactly once per (actor, idempotency key), as {@code docs/protocol.md} ("Idempotency") and
 * {@code docs/writes.md} describe.
 *
 * <p>Design. A call first looks for a stored answer; if there is none it becomes the key's one runner on this node
 * (callers with the same key wait for it in memory, holding no connection) and takes a session advisory lock on the
 * key's digest (a runner on another node holding it answers {@code 409 X_IDEMPOTENCY_IN_FLIGHT}). Under the lock it
 * looks again, then runs one transaction: {@code pg_logical_emit_message(true, 'runnel.write', <digest>)} first, so
 * the replicator knows the write before its rows; the server function; the idempotency row; COMMIT. Only then is the
 * WAL insert position read, which is at or after the commit's end, and the stored body completed with it.
 *
 * <p>Invariant: an answer is stored in the same transaction as the effects it reports, or (a refusal) alone after
 * they were rolled back; a 5xx stores nothing, so the call may be retried under the same key.
 */
final class MutationService {

  private static final System.Logger LOG = System.getLogger(MutationService.class.getName());

  /**
   * An answer: the status, the JSON body, {@code Retry-After} seconds (0: none), and how it came about for the
   * metrics ({@code ok}, {@code refused}, {@code replayed}, {@code reused}, {@code in_flight}, {@code failed}).
   */
  record Answer(int status, String body, int retryAfterSeconds, String outcome) {}

  private final DataSource dataSource;
  private final IdempotencyStore store;
  private final Clock clock;
  private final Duration retention;
  private final Duration inFlightWait;
  private final int maxAttempts;
  private final Duration statementTimeout;
  private final Sleeper sleeper;
  private final ConcurrentHashMap<String, CompletableFuture<Void>> running = new ConcurrentHashMap<>();

  MutationService(DataSource dataSource, IdempotencyStore store, Clock clock, Duration retention,
      Duration inFlightWait, int maxAttempts, Duration statementTimeout, Sleeper sleeper) {
    this.sleeper = sleeper;
    this.dataSource = dataSource;
    this.store = store;
    this.clock = clock;
    this.retention = retention;
    this.inFlightWait = inFlightWait;
    this.maxAttempts = maxAttempts;
    this.statementTimeout = statementTimeout;
  }

  /**
   * Calls {@code mutator} once for (actor, key), or answers the stored answer.
   *
   * @param input the decoded input
   * @param inputJson the input as the request carried it (its canonical JSON is hashed)
   */
  <I> Answer call(Mutator<I> mutator, Actor actor, String key, I input, JsonValue inputJson) {
    String actorId = actor.id() == null ? "" : actor.id();
    Call<I> call = new Call<>(mutator, actor, actorId, key, QueryHash.inputHash(mutator.name(), inputJson),
        QueryHash.writeDigest(actorId, key), input);
    String slot = actorId + "\n" + key;
    long deadline = System.nanoTime() + inFlightWait.toNanos();
    while (true) {
      try {
        Answer stored = lookup(call);
        if (stored != null) {
          return stored;
        }
      } catch (SQLException e) {
        return new Answer(500, Responses.internal(e, "Looking up idempotency key of " + mutator.name()), 0, "failed");
      }
      CompletableFuture<Void> mine = new CompletableFuture<>();
      CompletableFuture<Void> other = running.putIfAbsent(slot, mine);
      if (other == null) {
        try {
          Answer a = own(call);
          if (a != null) {
            return a;
          }
        } finally {
          running.remove(slot, mine);
          mine.complete(null);
        }
        continue;
      }
      long left = deadline - System.nanoTime();
      try {
        if (left <= 0) {
          return inFlight();
        }
        other.get(left, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        return inFlight();
      } catch (ExecutionException e) {
        // The runner's outcome is read from the store on the next turn.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return inFlight();
      }
    }
  }

  private @Nullable Answer lookup(Call<?> call) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      IdempotencyStore.Stored s = store.find(c, call.actorId(), call.key(), cutoff());
      // A 200 stored without its lsn is not final yet: its runner (or, after a crash, the next runner under the
      // key's lock) completes it, so every replay answers the same bytes.
      return s == null || provisional(s) ? null : replay(s, call.hash());
    }
  }

  private static boolean provisional(IdempotencyStore.Stored s) {
    return s.status() == 200 && Json.parse(s.body()) instanceof JsonObject o && o.get("lsn") == null;
  }

  /** As the key's runner on this node; null when another node answered meanwhile (the caller looks again). */
  private <I> @Nullable Answer own(Call<I> call) {
    long lockKey = Long.parseUnsignedLong(call.digest().substring(0, 16), 16);
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      if (!advisory(c, "SELECT pg_try_advisory_lock(?)", lockKey)) {
        return inFlight();
      }
      try {
        IdempotencyStore.Stored s = store.find(c, call.actorId(), call.key(), cutoff());
        if (s != null && s.inputHash().equals(call.hash()) && provisional(s)) {
          s = complete(c, call.actorId(), call.key(), s);
        }
        if (s != null) {
          return replay(s, call.hash());
        }
        return run(c, call);
      } finally {
        try {
          advisory(c, "SELECT pg_advisory_unlock(?)", lockKey);
        } catch (SQLException e) {
          // The session is gone, and its lock with it; the answer above stands.
          LOG.log(Level.DEBUG, "Releasing the key's advisory lock failed: " + e.getMessage());
        }
      }
    } catch (SQLException e) {
      return new Answer(500, Responses.internal(e, "Calling mutator " + call.mutator().name()), 0, "failed");
    }
  }

  private <I> @Nullable Answer run(Connection c, Call<I> call) throws SQLException {
    Mutator<I> mutator = call.mutator();
    String actorId = call.actorId();
    String key = call.key();
    String hash = call.hash();
    String digest = call.digest();
    for (int attempt = 1; ; attempt++) {
      Instant now = clock.instant();
      boolean committed = false;
      c.setTransactionIsolation(mutator.runsSerializable()
          ? Connection.TRANSACTION_SERIALIZABLE : Connection.TRANSACTION_READ_COMMITTED);
      c.setAutoCommit(false);
      try {
        try (Statement s = c.createStatement()) {
          s.execute("SET LOCAL statement_timeout = " + Math.max(1, statementTimeout.toMillis()));
        }
        try (PreparedStatement s = c.prepareStatement("SELECT pg_logical_emit_message(true, 'runnel.write', ?)")) {
          s.setString(1, digest);
          s.execute();
        }
        JsonValue result = Results.toJson(mutator.server().run(new Context(call.actor(), c), call.input()));
        JsonObject provisional = JsonObject.builder().put("result", result).put("write", digest).build();
        if (!store.insert(c, actorId, key, hash, mutator.name(), 200, provisional.toString(), now,
            now.minus(retention))) {
          c.rollback();
          return null;
        }
        c.commit();
        committed = true;
        c.setAutoCommit(true);
        String body = JsonObject.builder().put("result", result).put("write", digest).put("lsn", insertLsn(c))
            .build().toString();
        try {
          store.complete(c, actorId, key, body);
        } catch (SQLException e) {
          LOG.log(Level.WARNING, "Could not store the LSN of " + mutator.name() + "'s answer; the next call under"
              + " its key completes it with a later one: " + e.getMessage());
        }
        return new Answer(200, body, 0, "ok");
      } catch (MutatorRefusedException refusal) {
        rollback(c);
        String body = refusal.toJson().toString();
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        c.setAutoCommit(false);
        try {
          if (!store.insert(c, actorId, key, hash, mutator.name(), refusal.status(), body, now, now.minus(retention))) {
            c.rollback();
            return null;
          }
          c.commit();
        } catch (SQLException e) {
          rollback(c);
          throw e;
        }
        return new Answer(refusal.status(), body, 0, "refused");
      } catch (SQLException e) {
        if (committed) {
          return new Answer(500, Responses.internal(e, "Reading the LSN after " + mutator.name()), 0, "failed");
        }
        rollback(c);
        if (retryable(e) && attempt < maxAttempts) {
          pause(attempt);
          continue;
        }
        if ("57014".equals(e.getSQLState())) {
          HttpRefusal r = new HttpRefusal(504, ErrorCode.X_TIMEOUT, "A statement of mutator " + mutator.name()
              + " ran longer than " + statementTimeout.toMillis() + " ms and was cancelled; nothing was written.",
              "Retry later with the same key; if it repeats, make the mutator's statements faster (indexes).");
          return new Answer(504, r.toJson().toString(), 0, "failed");
        }
        return new Answer(500, Responses.internal(e, "Mutator " + mutator.name()), 0, "failed");
      } catch (RuntimeException e) {
        if (!committed) {
          rollback(c);
        }
        return new Answer(500, Responses.internal(e, "Mutator " + mutator.name()), 0, "failed");
      } finally {
        if (!committed) {
          // Whatever left the block (an Error included), an open transaction is rolled back here: turning
          // autocommit back on would otherwise commit it (JDBC, Connection.setAutoCommit).
          rollback(c);
        }
        c.setAutoCommit(true);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      }
    }
  }

  /** The stored answer for a call with {@code hash}: itself, or 422 when the key answered another input. */
  private static Answer replay(IdempotencyStore.Stored s, String hash) {
    if (!s.inputHash().equals(hash)) {
      HttpRefusal r = new HttpRefusal(422, ErrorCode.X_IDEMPOTENCY_KEY_REUSED,
          "This idempotency key already answered a call with another mutator or input.",
          "Use a new key for a new call; replay a key only with the very same call.");
      return new Answer(422, r.toJson().toString(), 0, "reused");
    }
    return new Answer(s.status(), s.body(), 0, "replayed");
  }

  /**
   * A provisional 200 (its runner died between the commit and storing the lsn) made final under the key's lock: the
   * WAL insert position now is later than that commit, so it is still a correct {@code lsn}.
   */
  private IdempotencyStore.Stored complete(Connection c, String actorId, String key, IdempotencyStore.Stored s)
      throws SQLException {
    JsonObject o = (JsonObject) Json.parse(s.body());
    String body = JsonObject.builder().put("result", Objects.requireNonNull(o.get("result"), "result"))
        .put("write", Objects.requireNonNull(o.get("write"), "write")).put("lsn", insertLsn(c)).build().toString();
    store.complete(c, actorId, key, body);
    return new IdempotencyStore.Stored(s.inputHash(), s.status(), body);
  }

  private static Answer inFlight() {
    HttpRefusal r = new HttpRefusal(409, 1, ErrorCode.X_IDEMPOTENCY_IN_FLIGHT,
        "A call with this idempotency key is running now.", "Retry after Retry-After seconds with the same key.");
    return new Answer(409, r.toJson().toString(), 1, "in_flight");
  }

  private Instant cutoff() {
    return clock.instant().minus(retention);
  }

  /** The WAL insert position as a 24-hex point: at or after the end of every commit that returned before it. */
  private static String insertLsn(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
      r.next();
      return Lsn.parse(r.getString(1)).point().toString();
    }
  }

  private static boolean advisory(Connection c, String sql, long key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, key);
      try (ResultSet r = s.executeQuery()) {
        return r.next() && r.getBoolean(1);
      }
    }
  }

  /** Serialization failure (40001) and deadlock (40P01), which PostgreSQL asks the client to retry. */
  private static boolean retryable(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && ("40001".equals(s.getSQLState()) || "40P01".equals(s.getSQLState()))) {
        return true;
      }
    }
    return false;
  }

  /** Full jitter: a random pause up to 10 ms × 2^attempt. */
  private void pause(int attempt) {
    long bound = 10L << Math.min(attempt, 6);
    try {
      sleeper.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextLong(1, bound + 1)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void rollback(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      LOG.log(Level.DEBUG, "Rollback failed (the connection is likely gone): " + e.getMessage());
    }
  }

  /**
   * One call: the mutator, who calls, the key, the input's hash and the write's digest.
   *
   * @param actorId the actor's id, {@code ""} for an anonymous actor
   */
  private record Call<I>(Mutator<I> mutator, Actor actor, String actorId, String key, String hash, String digest,
      I input) {}

  /** The server function's view of its call. */
  private record Context(Actor actor, Connection connection) implements MutationContext {
    @Override
    public int update(String sql, @Nullable Object... parameters) throws SQLException {
      try (PreparedStatement s = connection.prepareStatement(sql)) {
        for (int i = 0; i < parameters.length; i++) {
          s.setObject(i + 1, parameters[i]);
        }
        return s.executeUpdate();
      }
    }
  }
}
