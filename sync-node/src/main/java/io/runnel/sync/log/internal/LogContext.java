package io.runnel.sync.log.internal;

import io.runnel.sync.log.JsonLogFormatter;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * What a log line made on this thread is about: the id of the HTTP request being handled ({@code X-Request-Id}) and,
 * while an unexpected failure is logged, its error id (the {@code errorId} of a 500 body). {@link JsonLogFormatter}
 * writes both as fields. Kept per thread: Helidon handles each request on a virtual thread of its own, and
 * {@code java.util.logging}'s console and stream handlers format on the thread that logs.
 */
public final class LogContext {

  private static final ThreadLocal<String> REQUEST_ID = new ThreadLocal<>();
  private static final ThreadLocal<String> ERROR_ID = new ThreadLocal<>();

  private LogContext() {}

  /** The id of the request this thread is handling, or null outside a request. */
  public static @Nullable String requestId() {
    return REQUEST_ID.get();
  }

  /** The error id of the failure being logged on this thread now, or null. */
  public static @Nullable String errorId() {
    return ERROR_ID.get();
  }

  /**
   * The request id to use for a request that sent {@code header} as its {@code X-Request-Id}: the header when it is 1
   * to 128 visible ASCII characters (0x21–0x7E), else a new random UUID.
   */
  public static String requestIdFor(@Nullable String header) {
    return header != null && validRequestId(header) ? header : UUID.randomUUID().toString();
  }

  /** Whether {@code id} is 1 to 128 visible ASCII characters. */
  public static boolean validRequestId(@Nullable String id) {
    if (id == null || id.isEmpty() || id.length() > 128) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char ch = id.charAt(i);
      if (ch < 0x21 || ch > 0x7e) {
        return false;
      }
    }
    return true;
  }

  /** Runs {@code body} with {@code requestId} as this thread's request id; the previous one is restored after. */
  public static void withRequestId(String requestId, Runnable body) {
    Objects.requireNonNull(requestId, "requestId");
    String before = REQUEST_ID.get();
    REQUEST_ID.set(requestId);
    try {
      body.run();
    } finally {
      restore(REQUEST_ID, before);
    }
  }

  /**
   * Logs an unexpected failure under {@code errorId}: the line carries it as its {@code errorId} field (and the
   * message names it, for text logs). The message must hold no token, claim or row value.
   */
  public static void logFailure(System.Logger log, Level level, String errorId, String message,
      @Nullable Throwable thrown) {
    String before = ERROR_ID.get();
    ERROR_ID.set(Objects.requireNonNull(errorId, "errorId"));
    try {
      if (thrown == null) {
        log.log(level, "errorId=" + errorId + ": " + message);
      } else {
        log.log(level, "errorId=" + errorId + ": " + message, thrown);
      }
    } finally {
      restore(ERROR_ID, before);
    }
  }

  private static void restore(ThreadLocal<String> local, @Nullable String before) {
    if (before == null) {
      local.remove();
    } else {
      local.set(before);
    }
  }
}
