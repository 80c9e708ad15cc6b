package io.runnel.client.outbox;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.Ids;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.Json;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** Hand-driven fakes of the client's ports, for the outbox tests. */
final class Fakes {

  private Fakes() {}

  /** A clock and timers the test advances. */
  static final class FakeScheduler implements Scheduler {
    private long now = 1_700_000_000_000L;
    private final List<Task> tasks = new ArrayList<>();

    private static final class Task implements Cancellable {
      final long due;
      final Runnable run;
      boolean cancelled;

      Task(long due, Runnable run) {
        this.due = due;
        this.run = run;
      }

      @Override
      public void cancel() {
        cancelled = true;
      }
    }

    @Override
    public Cancellable schedule(long delayMillis, Runnable task) {
      if (delayMillis < 0) {
        throw new IllegalArgumentException("negative delay");
      }
      Task t = new Task(now + delayMillis, task);
      tasks.add(t);
      return t;
    }

    @Override
    public long nowMillis() {
      return now;
    }

    /** Moves the clock on by {@code millis}, running every task that falls due, in due order. */
    void advance(long millis) {
      long until = now + millis;
      while (true) {
        Task next = null;
        for (Task t : tasks) {
          if (!t.cancelled && t.due <= until && (next == null || t.due < next.due)) {
            next = t;
          }
        }
        if (next == null) {
          break;
        }
        tasks.remove(next);
        now = next.due;
        next.run.run();
      }
      now = until;
      tasks.removeIf(t -> t.cancelled);
    }

    /** The delays from now of the timers still armed. */
    List<Long> armed() {
      List<Long> out = new ArrayList<>();
      for (Task t : tasks) {
        if (!t.cancelled) {
          out.add(t.due - now);
        }
      }
      return out;
    }
  }

  /** Records every request; the test answers each by hand. */
  static final class RecordingHttp implements HttpPort {
    final List<Call> calls = new ArrayList<>();

    /** One request and the way to answer it. */
    static final class Call {
      final Request request;
      private final Consumer<Outcome> done;
      boolean answered;

      Call(Request request, Consumer<Outcome> done) {
        this.request = request;
        this.done = done;
      }

      String key() {
        return request.headers().get("Idempotency-Key");
      }

      void answer(int status, String body) {
        answer(status, body, -1);
      }

      void answer(int status, String body, long retryAfterSeconds) {
        answered = true;
        done.accept(new Answered(status, body, retryAfterSeconds));
      }

      void ok(String digest) {
        answer(200, "{\"result\":{\"ok\":true},\"write\":\"" + digest + "\",\"lsn\":\"00000000000000A000000000\"}");
      }

      void networkFails() {
        answered = true;
        done.accept(new NetworkFailed("offline"));
      }

      void refuse(int status, String code) {
        answer(status, "{\"code\":\"" + code + "\",\"cause\":\"Post p1 does not exist.\",\"fix\":\"Reload.\"}");
      }
    }

    /** When set, every request fails at once, inside {@code send}, as a browser's fetch does offline. */
    boolean offline;

    @Override
    public void send(Request request, Consumer<Outcome> done) {
      Call call = new Call(request, done);
      calls.add(call);
      if (offline) {
        call.networkFails();
      }
    }

    /** The one request not answered yet. */
    Call open() {
      List<Call> open = new ArrayList<>();
      for (Call c : calls) {
        if (!c.answered) {
          open.add(c);
        }
      }
      if (open.size() != 1) {
        throw new AssertionError("expected one open request, found " + open.size() + ": " + keys());
      }
      return open.get(0);
    }

    /** The idempotency keys of every request so far, in order. */
    List<String> keys() {
      List<String> out = new ArrayList<>();
      for (Call c : calls) {
        out.add(c.key());
      }
      return out;
    }

    Call last() {
      return calls.get(calls.size() - 1);
    }
  }

  /** A durable store in a sorted map; {@code list} answers at once or when the test releases it. */
  static final class MapStore implements DurableStore {
    final TreeMap<String, String> map = new TreeMap<>();
    final List<String> log = new ArrayList<>();
    boolean holdLists;
    private final List<Runnable> heldLists = new ArrayList<>();

    @Override
    public void put(String key, String value) {
      log.add("put " + key);
      map.put(key, value);
    }

    @Override
    public void remove(String key) {
      log.add("remove " + key);
      map.remove(key);
    }

    @Override
    public void list(String prefix, Consumer<Map<String, String>> done) {
      Runnable answer = () -> done.accept(Map.copyOf(map.subMap(prefix, prefix + Character.MAX_VALUE)));
      if (holdLists) {
        heldLists.add(answer);
      } else {
        answer.run();
      }
    }

    void releaseLists() {
      List<Runnable> now = List.copyOf(heldLists);
      heldLists.clear();
      now.forEach(Runnable::run);
    }
  }

  /** Records what the outbox asks of the record store, one line per call. */
  static final class RecordingWrites implements OptimisticWrites {
    final List<String> log = new ArrayList<>();

    @Override
    public <I> void apply(String writeId, MutatorRef<I> mutator, I input) {
      log.add("apply " + writeId + " " + mutator.codec().encode(input) + (mutator.local() == null ? " plain" : ""));
    }

    @Override
    public void answered(String writeId, String digest, String lsn) {
      log.add("answered " + writeId + " " + digest + " " + lsn);
    }

    @Override
    public void dropped(String writeId) {
      log.add("dropped " + writeId);
    }
  }

  /** Ids {@code 00000000-0000-0000-0000-00000000000N}, counting up. */
  static final class CountingIds implements Ids {
    private int n;

    @Override
    public String uuid() {
      n++;
      String digits = Integer.toString(n);
      return "00000000-0000-0000-0000-" + "000000000000".substring(digits.length()) + digits;
    }
  }

  /** The JVM's JSON: the query DSL's own parser. */
  static final class JvmJson implements JsonPort {
    @Override
    public JsonValue parse(String text) {
      return Json.parse(text);
    }

    @Override
    public String write(JsonValue value) {
      return Json.write(value);
    }
  }

  /** Bearer tokens {@code t1}, {@code t2}, …: a refresh moves to the next. */
  static final class RotatingCredentials implements Credentials {
    int refreshes;

    @Override
    public void token(boolean refresh, Consumer<String> done) {
      if (refresh) {
        refreshes++;
      }
      done.accept("t" + (refreshes + 1));
    }
  }
}
