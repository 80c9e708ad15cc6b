package io.runnel.loadtest;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one decoder measured over the same WAL: how many changes it counted, over what time, with how much CPU.
 * A worker JVM prints it as one line starting {@link #PREFIX}; the orchestrator parses that line.
 *
 * @param decoder {@code bare}, {@code pg_recvlogical}, {@code runnel} or {@code debezium}
 * @param changes the row changes counted (for {@code pg_recvlogical}, the expected count: it only writes bytes)
 * @param startNanos from opening the stream (or starting the engine) to the last change, nanoseconds
 * @param steadyNanos from the first change to the last, nanoseconds
 * @param clientCpuTicks CPU of the decoding process over {@code startNanos}, ticks ({@link ProcStat#TICKS_PER_SECOND})
 * @param serverCpuTicks CPU of the PostgreSQL server processes over the same interval, ticks
 * @param payloadBytes bytes handed to the consumer (bus envelopes, Debezium's JSON values, pgoutput messages)
 */
public record DecodeRun(String decoder, long changes, long startNanos, long steadyNanos, long clientCpuTicks,
    long serverCpuTicks, long payloadBytes) {

  /** The result line's first token. */
  public static final String PREFIX = "DECODE-RESULT";

  /** Checks the figures are not negative. */
  public DecodeRun {
    if (changes < 0 || startNanos < 0 || steadyNanos < 0 || clientCpuTicks < 0 || serverCpuTicks < 0
        || payloadBytes < 0) {
      throw new IllegalArgumentException("negative figure in " + decoder);
    }
  }

  /** Changes per second from the first change to the last (the steady rate). */
  public double steadyRate() {
    return steadyNanos == 0 ? 0 : changes * 1e9 / steadyNanos;
  }

  /** Changes per second from opening the stream to the last change (start-up included). */
  public double startRate() {
    return startNanos == 0 ? 0 : changes * 1e9 / startNanos;
  }

  /** The result line. */
  public String line() {
    return String.format(Locale.ROOT, "%s decoder=%s changes=%d startNanos=%d steadyNanos=%d clientCpuTicks=%d"
        + " serverCpuTicks=%d payloadBytes=%d", PREFIX, decoder, changes, startNanos, steadyNanos, clientCpuTicks,
        serverCpuTicks, payloadBytes);
  }

  /**
   * Parses a result line.
   *
   * @throws IllegalArgumentException when it does not start with {@link #PREFIX} or lacks a field
   */
  public static DecodeRun parse(String line) {
    String[] tokens = line.trim().split(" ");
    if (!tokens[0].equals(PREFIX)) {
      throw new IllegalArgumentException("not a decode result: " + line);
    }
    Map<String, String> f = new HashMap<>();
    for (int i = 1; i < tokens.length; i++) {
      int eq = tokens[i].indexOf('=');
      if (eq > 0) {
        f.put(tokens[i].substring(0, eq), tokens[i].substring(eq + 1));
      }
    }
    try {
      return new DecodeRun(Objects.requireNonNull(f.get("decoder")), Long.parseLong(f.get("changes")),
          Long.parseLong(f.get("startNanos")), Long.parseLong(f.get("steadyNanos")),
          Long.parseLong(f.get("clientCpuTicks")), Long.parseLong(f.get("serverCpuTicks")),
          Long.parseLong(f.get("payloadBytes")));
    } catch (NumberFormatException | NullPointerException e) {
      throw new IllegalArgumentException("incomplete decode result: " + line, e);
    }
  }
}
