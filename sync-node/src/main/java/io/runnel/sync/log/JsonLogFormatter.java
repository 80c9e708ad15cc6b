package io.runnel.sync.log;

import io.runnel.sync.log.internal.LogContext;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.sql.SQLException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.jspecify.annotations.Nullable;

/**
 * Formats each {@code java.util.logging} record as one JSON object on one line:
 *
 * <pre>{@code
 * {"ts":"2026-11-30T01:02:03.456Z","level":"ERROR","logger":"io.runnel.sync.http.internal.Responses","thread":"…",
 *  "msg":"errorId=…: POST /v1/mutate/addCard failed","requestId":"…","errorId":"…",
 *  "thrown":{"class":"java.lang.IllegalStateException","message":"…","stack":["at …","Caused by: …","at …"]}}
 * }</pre>
 *
 * {@code ts} is the record's instant in ISO 8601, UTC; {@code level} is {@code ERROR} (SEVERE), {@code WARN},
 * {@code INFO} (INFO, CONFIG), {@code DEBUG} (FINE) or {@code TRACE} (FINER, FINEST); {@code requestId} and
 * {@code errorId} appear when {@link LogContext} has them on the logging thread; {@code thrown} when the record
 * carries an exception, its causes in the stack array, and the message of an {@link SQLException} (which may quote
 * row values) replaced by its SQLState. Strings are escaped as JSON, so a message cannot break the
 * line. Read by the handler's own thread: install it on handlers that format where the record is logged (console,
 * stream and file handlers do).
 */
public final class JsonLogFormatter extends Formatter {

  /** A formatter. */
  public JsonLogFormatter() {}

  /**
   * Puts a new {@code JsonLogFormatter} on every handler of the root logger (a console handler in a default JVM), so
   * every line the process logs is JSON.
   */
  public static void installOnRoot() {
    for (Handler h : LogManager.getLogManager().getLogger("").getHandlers()) {
      h.setFormatter(new JsonLogFormatter());
    }
  }

  @Override
  public String format(LogRecord record) {
    JsonObject.Builder b = JsonObject.builder()
        .put("ts", DateTimeFormatter.ISO_INSTANT.format(record.getInstant()))
        .put("level", level(record.getLevel()))
        .put("logger", record.getLoggerName() == null ? "" : record.getLoggerName())
        .put("thread", Thread.currentThread().getName())
        .put("msg", message(record));
    String requestId = LogContext.requestId();
    if (requestId != null) {
      b.put("requestId", requestId);
    }
    String errorId = LogContext.errorId();
    if (errorId != null) {
      b.put("errorId", errorId);
    }
    if (record.getThrown() != null) {
      b.put("thrown", thrown(record.getThrown()));
    }
    return b.build() + System.lineSeparator();
  }

  private String message(LogRecord record) {
    String m = formatMessage(record);
    return m == null ? "" : m;
  }

  /** The level's name: {@code ERROR}, {@code WARN}, {@code INFO}, {@code DEBUG} or {@code TRACE}. */
  static String level(Level level) {
    int v = level.intValue();
    if (v >= Level.SEVERE.intValue()) {
      return "ERROR";
    } else if (v >= Level.WARNING.intValue()) {
      return "WARN";
    } else if (v >= Level.CONFIG.intValue()) {
      return "INFO";
    } else if (v >= Level.FINE.intValue()) {
      return "DEBUG";
    }
    return "TRACE";
  }

  private static JsonObject thrown(Throwable t) {
    List<JsonValue> stack = new ArrayList<>();
    IdentityHashMap<Throwable, Boolean> seen = new IdentityHashMap<>();
    Throwable current = t;
    boolean first = true;
    while (current != null && seen.put(current, Boolean.TRUE) == null && stack.size() < 1000) {
      if (!first) {
        stack.add(new JsonString("Caused by: " + describe(current)));
      }
      for (StackTraceElement e : current.getStackTrace()) {
        stack.add(new JsonString("at " + e));
      }
      first = false;
      current = current.getCause();
    }
    return JsonObject.builder().put("class", t.getClass().getName()).put("message", message(t))
        .put("stack", new JsonArray(stack)).build();
  }

  private static String describe(Throwable t) {
    @Nullable String m = message(t);
    return m == null ? t.getClass().getName() : t.getClass().getName() + ": " + m;
  }

  /**
   * A throwable's message, except a database's: PostgreSQL's messages and their DETAIL quote values (a duplicate
   * key's, a bad input's), so an {@link SQLException} is written as its SQLState alone.
   */
  private static @Nullable String message(Throwable t) {
    if (t instanceof SQLException e) {
      return "SQLState " + e.getSQLState() + " (the database's message is left out: it may quote row values)";
    }
    // A wrapper built as new X(cause) carries the cause's toString() as its own message: when an SQLException is
    // anywhere below, that text is the database's, so it is left out too.
    for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      if (c instanceof SQLException e) {
        return t.getClass().getSimpleName() + " caused by SQLState " + e.getSQLState()
            + " (the messages are left out: the database's may quote row values)";
      }
    }
    return t.getMessage();
  }
}
