package io.runnel.sync.socket.internal;

import io.micrometer.core.instrument.Counter;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The last line around a socket's handlers ({@code onOpen}, {@code onMessage}, {@code onClose}, {@code onError}):
 * a failure that would escape one — a bug, since every refusal is coded before it gets here — is logged once under a
 * fresh {@code errorId}, counted in {@code runnel_handler_failures_total}, and handed back to the socket, which
 * answers the client alone ({@code refuse X_INTERNAL} naming the errorId). Without it Helidon would close the socket
 * with 1011 and the client would never learn why; with it the hostile-input test can prove the count stays 0.
 */
final class HandlerGuard {

  private static final System.Logger LOG = System.getLogger(HandlerGuard.class.getName());

  private final Counter failures;

  /** @param failures the counter of escaped failures ({@code runnel_handler_failures}) */
  HandlerGuard(Counter failures) {
    this.failures = Objects.requireNonNull(failures, "failures");
  }

  /**
   * Runs {@code body}, the work of the handler named {@code handler}.
   *
   * @return null when it ran through, else the errorId its failure was logged under; a runtime exception or a
   *     stack overflow is caught, any other {@link Error} (out of memory) goes on up
   */
  @Nullable String run(String handler, Runnable body) {
    try {
      body.run();
      return null;
    } catch (RuntimeException | StackOverflowError e) {
      String errorId = UUID.randomUUID().toString();
      failures.increment();
      LOG.log(Level.ERROR, "errorId=" + errorId + ": the socket handler " + handler + " failed", e);
      return errorId;
    }
  }
}
