package io.runnel.client.port;

import io.runnel.wire.Numbers;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** Makes HTTP calls to the node (mutator calls, tickets, one-shot reads); the browser's {@code fetch}. */
public interface HttpPort {

  /**
   * One request.
   *
   * @param method {@code GET} or {@code POST}
   * @param url the absolute URL
   * @param headers request headers
   * @param body the body, or null
   */
  record Request(String method, String url, Map<String, String> headers, @Nullable String body) {
    /** Checks the parts and copies the headers. */
    public Request {
      Objects.requireNonNull(method, "method");
      Objects.requireNonNull(url, "url");
      headers = copy(headers);
    }

    /**
     * {@code Map.copyOf(headers)} on the JVM. A bundle copies the strings in a loop, so that no {@code hashCode} call
     * sees every class's instances ({@code docs/client.md}, "Sizes"); its copy keeps the given order.
     */
    private static Map<String, String> copy(Map<String, String> headers) {
      if (!Numbers.inBrowser()) {
        return Map.copyOf(headers);
      }
      LinkedHashMap<String, String> out = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : headers.entrySet()) {
        String name = Objects.requireNonNull(e.getKey(), "header name");
        out.put(name, Objects.requireNonNull(e.getValue(), "header value"));
      }
      return Collections.unmodifiableMap(out);
    }
  }

  /** How a request ended: an answer with a status, or no answer at all. */
  sealed interface Outcome permits Answered, NetworkFailed {}

  /**
   * The node answered.
   *
   * @param status the HTTP status
   * @param body the body text
   * @param retryAfterSeconds the {@code Retry-After} header in seconds, or -1 when absent
   */
  record Answered(int status, String body, long retryAfterSeconds) implements Outcome {}

  /** No answer: offline, DNS, a reset connection, a CORS refusal the page cannot read. */
  record NetworkFailed(String reason) implements Outcome {}

  /** Sends {@code request}; {@code done} is called once, on the client's thread. */
  void send(Request request, Consumer<Outcome> done);
}
