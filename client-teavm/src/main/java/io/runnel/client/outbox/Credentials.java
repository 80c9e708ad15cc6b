package io.runnel.client.outbox;

import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Where a mutator call's identity comes from: a bearer token the app supplies (and refreshes after a 401), or the
 * {@code runnel_session} cookie the browser sends by itself.
 */
@FunctionalInterface
public interface Credentials {

  /**
   * Gives {@code done} the bearer token to send, or null to send none (cookie mode); called on the client's
   * thread, once.
   *
   * @param refresh true after the node answered 401: the app should get a new token, not the cached one
   */
  void token(boolean refresh, Consumer<@Nullable String> done);

  /** Cookie mode: no {@code Authorization} header; the browser sends the session cookie. */
  static Credentials cookie() {
    return (refresh, done) -> done.accept(null);
  }

  /** One fixed bearer token, never refreshed. */
  static Credentials bearer(String token) {
    Objects.requireNonNull(token, "token");
    return (refresh, done) -> done.accept(token);
  }
}
