package io.runnel.sync.log;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.sync.log.internal.LogContext;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;
import org.junit.jupiter.api.Test;

/** One JSON object per line, with the fields operators search by, whatever the message holds. */
class JsonLogFormatterTest {

  private final JsonLogFormatter formatter = new JsonLogFormatter();

  static String text(JsonObject o, String field) {
    return o.get(field) instanceof JsonString s ? s.value() : null;
  }

  JsonObject line(String formatted) {
    assertTrue(formatted.endsWith(System.lineSeparator()), "a line ends each record");
    String body = formatted.substring(0, formatted.length() - System.lineSeparator().length());
    assertFalse(body.contains("\n") || body.contains("\r"), "one record is one line: " + body);
    return (JsonObject) Json.parse(body);
  }

  @Test
  void aRecordIsOneJsonLineWithTimeLevelLoggerAndMessage() {
    LogRecord r = new LogRecord(Level.WARNING, "two\nlines and \"quotes\" and a tab\t");
    r.setLoggerName("io.runnel.test");
    r.setInstant(Instant.parse("2026-11-30T01:02:03.456Z"));
    JsonObject o = line(formatter.format(r));
    assertAll(
        () -> assertEquals("2026-11-30T01:02:03.456Z", text(o, "ts"), "ISO 8601, UTC"),
        () -> assertEquals("WARN", text(o, "level")),
        () -> assertEquals("io.runnel.test", text(o, "logger")),
        () -> assertEquals("two\nlines and \"quotes\" and a tab\t", text(o, "msg"), "escaped, not cut"),
        () -> assertNull(o.get("requestId"), "outside a request there is no request id"),
        () -> assertNull(o.get("errorId")),
        () -> assertNull(o.get("thrown")));
  }

  @Test
  void levelsMapToTheNamesOperatorsSearchBy() {
    assertAll(
        () -> assertEquals("ERROR", JsonLogFormatter.level(Level.SEVERE)),
        () -> assertEquals("WARN", JsonLogFormatter.level(Level.WARNING)),
        () -> assertEquals("INFO", JsonLogFormatter.level(Level.INFO)),
        () -> assertEquals("INFO", JsonLogFormatter.level(Level.CONFIG)),
        () -> assertEquals("DEBUG", JsonLogFormatter.level(Level.FINE)),
        () -> assertEquals("TRACE", JsonLogFormatter.level(Level.FINER)),
        () -> assertEquals("TRACE", JsonLogFormatter.level(Level.FINEST)));
  }

  @Test
  void aThrowableCarriesItsClassMessageAndStackWithItsCauses() {
    LogRecord r = new LogRecord(Level.SEVERE, "failed");
    r.setThrown(new IllegalStateException("outer", new IOException("inner")));
    JsonObject thrown = (JsonObject) line(formatter.format(r)).get("thrown");
    JsonArray stack = (JsonArray) thrown.get("stack");
    List<String> entries = stack.elements().stream().map(v -> ((JsonString) v).value()).toList();
    assertAll(
        () -> assertEquals("java.lang.IllegalStateException", text(thrown, "class")),
        () -> assertEquals("outer", text(thrown, "message")),
        () -> assertTrue(entries.get(0).startsWith("at io.runnel.sync.log.JsonLogFormatterTest."), entries.get(0)),
        () -> assertTrue(entries.contains("Caused by: java.io.IOException: inner"), entries.toString()));
  }

  @Test
  void linesLoggedInsideARequestCarryItsIdAndAFailureItsErrorId() {
    Logger logger = Logger.getLogger("io.runnel.sync.log.test");
    List<String> lines = new ArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        lines.add(getFormatter().format(record));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    capture.setFormatter(formatter);
    logger.addHandler(capture);
    try {
      System.Logger log = System.getLogger("io.runnel.sync.log.test");
      LogContext.withRequestId("req-42", () -> {
        log.log(System.Logger.Level.INFO, "inside");
        LogContext.logFailure(log, System.Logger.Level.ERROR, "err-7", "it broke", new RuntimeException("boom"));
      });
      log.log(System.Logger.Level.INFO, "outside");
    } finally {
      logger.removeHandler(capture);
    }
    JsonObject inside = line(lines.get(0));
    JsonObject failure = line(lines.get(1));
    JsonObject outside = line(lines.get(2));
    assertAll(
        () -> assertEquals(3, lines.size()),
        () -> assertEquals("req-42", text(inside, "requestId")),
        () -> assertNull(inside.get("errorId")),
        () -> assertEquals("req-42", text(failure, "requestId")),
        () -> assertEquals("err-7", text(failure, "errorId")),
        () -> assertEquals("errorId=err-7: it broke", text(failure, "msg"), "text logs still name the error id"),
        () -> assertEquals("java.lang.RuntimeException", text((JsonObject) failure.get("thrown"), "class")),
        () -> assertNull(outside.get("requestId"), "the request's id ends with it"),
        () -> assertNull(outside.get("errorId")));
  }

  @Test
  void installingOnTheRootPutsTheFormatterOnEveryRootHandler() {
    Logger root = Logger.getLogger("");
    Handler added = new StreamHandler(OutputStream.nullOutputStream(),
        new SimpleFormatter());
    root.addHandler(added);
    List<Formatter> before = new ArrayList<>();
    for (Handler h : root.getHandlers()) {
      before.add(h.getFormatter());
    }
    try {
      JsonLogFormatter.installOnRoot();
      assertTrue(Arrays.stream(root.getHandlers()).allMatch(h -> h.getFormatter() instanceof JsonLogFormatter),
          "every root handler formats JSON");
    } finally {
      Handler[] handlers = root.getHandlers();
      for (int i = 0; i < handlers.length && i < before.size(); i++) {
        // A handler another test left on the root may have no formatter (a capturing one): nothing to restore.
        if (before.get(i) != null) {
          handlers[i].setFormatter(before.get(i));
        }
      }
      root.removeHandler(added);
    }
  }

  @Test
  void anIncomingRequestIdIsKeptOnlyWhenItIsOneTo128VisibleAscii() {
    String longest = "a".repeat(128);
    assertAll(
        () -> assertEquals("abc-123_XYZ.:/", LogContext.requestIdFor("abc-123_XYZ.:/")),
        () -> assertEquals(longest, LogContext.requestIdFor(longest)),
        () -> assertTrue(LogContext.requestIdFor("a".repeat(129)).matches("[0-9a-f-]{36}"), "too long: replaced"),
        () -> assertTrue(LogContext.requestIdFor("has space").matches("[0-9a-f-]{36}"), "a space: replaced"),
        () -> assertTrue(LogContext.requestIdFor("").matches("[0-9a-f-]{36}"), "empty: replaced"),
        () -> assertTrue(LogContext.requestIdFor(null).matches("[0-9a-f-]{36}"), "none: generated"),
        () -> assertTrue(LogContext.requestIdFor("caf\u00e9").matches("[0-9a-f-]{36}"), "not ASCII: replaced"),
        () -> assertTrue(LogContext.requestIdFor("x\u007f").matches("[0-9a-f-]{36}"), "DEL: replaced"));
  }
}
