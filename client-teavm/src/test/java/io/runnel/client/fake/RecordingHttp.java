package io.runnel.client.fake;

import io.runnel.client.port.HttpPort;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Records every request; the test answers each by hand. */
public final class RecordingHttp implements HttpPort {

  /** Every request so far, in order. */
  public final List<Call> calls = new ArrayList<>();

  /** When set, every request fails at once, inside {@code send}, as a browser's fetch does offline. */
  public boolean offline;

  /** One request and the way to answer it. */
  public static final class Call {
    public final Request request;
    private final Consumer<Outcome> done;
    public boolean answered;

    Call(Request request, Consumer<Outcome> done) {
      this.request = request;
      this.done = done;
    }

    /** The request's {@code Idempotency-Key}. */
    public String key() {
      return request.headers().get("Idempotency-Key");
    }

    /** Answers {@code status} with {@code body} and no {@code Retry-After}. */
    public void answer(int status, String body) {
      answer(status, body, -1);
    }

    /** Answers {@code status} with {@code body} and {@code Retry-After} (-1: none). */
    public void answer(int status, String body, long retryAfterSeconds) {
      answered = true;
      done.accept(new Answered(status, body, retryAfterSeconds));
    }

    /** Answers 200 with write {@code digest} at LSN {@code 00000000000000A000000000}. */
    public void ok(String digest) {
      ok(digest, "00000000000000A000000000");
    }

    /** Answers 200 with write {@code digest} at {@code lsn}. */
    public void ok(String digest, String lsn) {
      answer(200, "{\"result\":{\"ok\":true},\"write\":\"" + digest + "\",\"lsn\":\"" + lsn + "\"}");
    }

    /** No answer: the network failed. */
    public void networkFails() {
      answered = true;
      done.accept(new NetworkFailed("offline"));
    }

    /** Refuses with {@code status} and {@code code}. */
    public void refuse(int status, String code) {
      answer(status, "{\"code\":\"" + code + "\",\"cause\":\"Post p1 does not exist.\",\"fix\":\"Reload.\"}");
    }
  }

  @Override
  public void send(Request request, Consumer<Outcome> done) {
    Call call = new Call(request, done);
    calls.add(call);
    if (offline) {
      call.networkFails();
    }
  }

  /** The one request not answered yet. */
  public Call open() {
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
  public List<String> keys() {
    List<String> out = new ArrayList<>();
    for (Call c : calls) {
      out.add(c.key());
    }
    return out;
  }

  /** The request made last. */
  public Call last() {
    return calls.get(calls.size() - 1);
  }
}
