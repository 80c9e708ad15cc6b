package io.runnel.loadtest;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The pure helpers of the socket scenarios: percentiles, frame fields, RSS, counts, result lines, bare frames. */
class SocketHelpersTest {

  @Test
  void percentilesAreByNearestRank() {
    long[] hundred = new long[100];
    for (int i = 0; i < 100; i++) {
      hundred[99 - i] = i + 1;
    }
    assertAll(
        () -> assertEquals(50, Latencies.percentile(hundred.clone(), 50), "the 50th of 1..100 is 50"),
        () -> assertEquals(99, Latencies.percentile(hundred.clone(), 99)),
        () -> assertEquals(100, Latencies.percentile(hundred.clone(), 100), "the 100th is the max"),
        () -> assertEquals(7, Latencies.percentile(new long[] {7}, 1), "one sample is every percentile"),
        () -> assertEquals(2, Latencies.percentile(new long[] {3, 1, 2}, 50), "unsorted input is sorted"),
        () -> assertThrows(IllegalArgumentException.class, () -> Latencies.percentile(new long[0], 50)),
        () -> assertThrows(IllegalArgumentException.class, () -> Latencies.percentile(new long[] {1}, 0)),
        () -> assertThrows(IllegalArgumentException.class, () -> Latencies.percentile(new long[] {1}, 101)));
  }

  @Test
  void aFramesNumberIsReadQuotedOrNotAndAbsentIsMinusOne() {
    String patch = "{\"t\":\"patch\",\"sid\":\"s\",\"ops\":[{\"op\":\"put\",\"type\":\"feed\",\"key\":\"42\","
        + "\"row\":{\"seq\":\"42\",\"org\":\"t2\",\"body\":\"b\"},\"after\":null},{\"op\":\"del\",\"type\":\"feed\","
        + "\"key\":\"2\"}],\"writes\":[],\"cursor\":{\"qid\":\"feed:0@t2\",\"lsn\":\"0\",\"at\":1}}";
    assertAll(
        () -> assertEquals(42, Latencies.number(patch, "seq"), "an int8 is a JSON string"),
        () -> assertEquals(1, Latencies.number(patch, "at"), "a bare number"),
        () -> assertEquals(-1, Latencies.number(patch, "missing")),
        () -> assertEquals(-1, Latencies.number("{\"seq\":null}", "seq"), "no digits"),
        () -> assertEquals(123, Latencies.number(new StringBuilder("{\"sent\":123}"), "sent"), "any CharSequence"));
  }

  @Test
  void theBareRoutesFrameHasTheAskedSizeAndCarriesItsSeqAndSendTime() {
    String f = BareNode.frame(77, 123456789, 400);
    String tiny = BareNode.frame(1, 2, 10);
    assertAll(
        () -> assertEquals(400, f.length()),
        () -> assertTrue(f.startsWith("{\"t\":\"patch\""), "clients record frames of kind patch"),
        () -> assertEquals(77, Latencies.number(f, "seq")),
        () -> assertEquals(123456789, Latencies.number(f, "sent")),
        () -> assertTrue(tiny.length() > 10, "never shorter than its fixed part"),
        () -> assertTrue(tiny.endsWith("}]}")));
  }

  @Test
  void rssIsReadInBytesFromTheStatusText() {
    String status = "Name:\tjava\nVmPeak:\t  999 kB\nVmRSS:\t  204800 kB\nThreads:\t9\n";
    assertAll(
        () -> assertEquals(204_800L * 1024, Rss.parse(status)),
        () -> assertThrows(IllegalArgumentException.class, () -> Rss.parse("Name:\tjava\n")));
  }

  /** The command line {@code --idle-counts value} (none without a value), quick profile. */
  private static Flags idleCounts(String... value) {
    List<String> args = value.length == 0 ? List.of() : List.of("--idle-counts", value[0]);
    return Flags.parse(args, Set.of("idle-counts"), Set.of("idle"));
  }

  @Test
  void idleCountsRiseAndAreSharedEvenlyOverClientJvms() {
    assertAll(
        () -> assertEquals(List.of(1000, 5000, 19000), idleCounts().rising("idle-counts", "1000,5000,19000", "1"),
            "the profile's"),
        () -> assertEquals(List.of(10, 20_000), idleCounts("10, 20_000").rising("idle-counts", "1", "1"),
            "a flag wins"),
        () -> assertThrows(IllegalArgumentException.class, () -> idleCounts("5,5").rising("idle-counts", "1", "1"),
            "not rising"),
        () -> assertThrows(IllegalArgumentException.class, () -> idleCounts("0").rising("idle-counts", "1", "1")),
        () -> assertThrows(IllegalArgumentException.class, () -> idleCounts("1k").rising("idle-counts", "1", "1")),
        () -> assertArrayEquals(new int[] {4, 3, 3}, IdleScenario.share(10, 3)),
        () -> assertArrayEquals(new int[] {0, 0}, IdleScenario.share(0, 2)),
        () -> assertEquals(1, SocketBench.clientJvms(9_000)),
        () -> assertEquals(3, SocketBench.clientJvms(19_000), "each client JVM stays under the descriptor limit"));
  }

  @Test
  void aResultLineIsParsedAndABadOneRefused() {
    FanoutResult r = FanoutResult.parse("result 100 2000000000 1000 1000 335000 1500000 40000000 90000000 3 0"
        + " 5000000000 7000000000 2000000 41000000 91000000");
    assertAll(
        () -> assertEquals(100, r.changes()),
        () -> assertEquals(1000, r.frames()),
        () -> assertEquals(335.0, r.frameBytes()),
        () -> assertEquals(2_000_000_000L, r.spanNanos(), "first to last receipt"),
        () -> assertEquals(500.0, r.framesPerSecond(), "over the longer of the period and the span"),
        () -> assertEquals(50.0, r.changesPerSecond()),
        () -> assertEquals(List.of("1.5", "40.0", "90.0"), r.latencies()),
        () -> assertEquals(3, r.belowZero()),
        () -> assertEquals(41_000_000L, r.sentP99(), "the upper bound, from the statement sent"),
        () -> assertThrows(IllegalArgumentException.class, () -> FanoutResult.parse("opened 1 2 3 -")),
        () -> assertThrows(IllegalArgumentException.class, () -> FanoutResult.parse("result 1 2 3"), "too short"));
  }

  @Test
  void aTrackingSocketKeepsTheLastCursorAndTheKeysItsListHolds() {
    ClientSocket s = new ClientSocket(2, "seq", true);
    assertEquals(null, s.resumeCursor(), "no cursor before the first frame");
    s.onText(new NoSocket(), "{\"t\":\"snapshot\",\"sid\":\"s\",\"records\":[{\"type\":\"feed\",\"key\":\"9\","
        + "\"row\":{\"seq\":\"9\"}},{\"type\":\"feed\",\"key\":\"7\",\"row\":{\"seq\":\"7\"}}],"
        + "\"cursor\":{\"qid\":\"feed:00@t2\",\"lsn\":\"a\",\"at\":1}}", true);
    s.onText(new NoSocket(), "{\"t\":\"patch\",\"sid\":\"s\",\"ops\":[{\"op\":\"put\",\"type\":\"feed\","
        + "\"key\":\"12\",\"row\":{\"seq\":\"12\"},\"after\":null},{\"op\":\"del\",\"type\":\"feed\","
        + "\"key\":\"7\"}],\"writes\":[],\"cursor\":{\"qid\":\"feed:00@t2\",\"lsn\":\"b\",\"at\":2}}", true);
    s.onText(new NoSocket(), "{\"t\":\"patch\",\"sid\":\"s\",\"ops\":[{\"op\":\"del\",\"type\":\"feed\","
        + "\"key\":\"9\"}],\"writes\":[],\"cursor\":{\"qid\":\"feed:00@t2\",\"lsn\":\"c\",\"at\":3}}", true);
    assertAll(
        () -> assertEquals("{\"qid\":\"feed:00@t2\",\"lsn\":\"c\",\"at\":3,\"ids\":[\"12\"]}", s.resumeCursor(),
            "the last cursor, with the one key left"),
        () -> assertEquals(1, s.count(), "the put's row was recorded"),
        () -> assertEquals(1, s.unnumbered(), "the del-only patch was counted apart"),
        () -> assertEquals(s.resumeCursor(), ClientSocket.resuming(s).resumeCursor(), "a resuming socket starts"
            + " from it"));
  }

  @Test
  void theStormReadsResumesAndWindowReadsFromPrometheusText() {
    String text = "# HELP runnel_resumes_total x\n# TYPE runnel_resumes_total counter\n"
        + "runnel_resumes_total{path=\"delta\"} 9990.0\nrunnel_resumes_total{path=\"snapshot\"} 10.0\n"
        + "runnel_window_reads_total 1000.0\nrunnel_frames_dropped_total 7.0\n";
    NodeCounters m = NodeCounters.parse(text);
    assertAll(
        () -> assertEquals(9990.0, m.deltas()),
        () -> assertEquals(10.0, m.snapshots()),
        () -> assertEquals(1000.0, m.windowReads()),
        () -> assertEquals(7.0, m.framesDropped()),
        () -> assertThrows(IllegalStateException.class, () -> NodeCounters.parse("runnel_windows 1.0\n"),
            "a missing series is an error, not a zero"));
  }

  /** A socket the listener is handed and only asks for more frames on. */
  private static final class NoSocket implements WebSocket {
    @Override
    public CompletableFuture<WebSocket> sendText(CharSequence data, boolean last) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendBinary(ByteBuffer data,
        boolean last) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendPing(ByteBuffer message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendPong(ByteBuffer message) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<WebSocket> sendClose(int statusCode, String reason) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void request(long n) {
    }

    @Override
    public String getSubprotocol() {
      return "";
    }

    @Override
    public boolean isOutputClosed() {
      return false;
    }

    @Override
    public boolean isInputClosed() {
      return false;
    }

    @Override
    public void abort() {
    }
  }
}
