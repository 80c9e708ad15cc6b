package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.AdmissionLimits;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ManualClock;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Regressions found while building the hostile-input storm ({@link HostileInputTest}), each on a node of its own on
 * the real PostgreSQL, its clock stopped (so the frame budget never refills): fragments are bounded joined, a binary
 * frame forgets a text message it broke off and counts against the frame rate, and a handler that would throw
 * answers {@code X_INTERNAL} with an errorId, counts in {@code runnel_handler_failures_total} and gives back what it
 * took.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileFrameCasesTest {

  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(QueryRef.live("notes", NoInput.CODEC, in -> select(HostileInputTest.NOTES).orderBy(asc("id"))))
          .on(HostileInputTest.NOTES_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(QueryRef.live("throwing", NoInput.CODEC, in -> {
        throw new IllegalStateException("the app's source broke");
      })).on(HostileInputTest.NOTES_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(QueryRef.live("overflowing", NoInput.CODEC, in -> {
        throw new StackOverflowError("the app's source recursed without end");
      })).on(HostileInputTest.NOTES_ENTITY).policy(Policy.authenticated()))
      .build();

  LiveFixtureAccess fixture;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text, body text)");
    fixture = LiveFixtureAccess.start(db, "hostile_cases", List.of(HostileInputTest.NOTES_ENTITY));
  }

  @AfterAll
  void stop() {
    fixture.close();
  }

  SyncNode node(AdmissionLimits limits) {
    return node(limits, SocketLimits.DEFAULTS);
  }

  SyncNode node(AdmissionLimits limits, SocketLimits socketLimits) {
    return node(limits, socketLimits, ManualClock.at(Instant.parse("2026-12-01T09:00:00Z")));
  }

  /** A started node whose wall and monotonic clocks are {@code clock}, which only the test moves. */
  SyncNode node(AdmissionLimits limits, SocketLimits socketLimits, ManualClock clock) {
    // Wall and monotonic clocks both stopped: the frame rate's bucket refills nothing while a test floods it.
    SyncNode node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(ChannelFixture.IDENTITIES).clock(clock).monotonic(clock::nanos)
        .admissionLimits(limits).limits(socketLimits).listen("127.0.0.1", 0).build();
    node.start();
    return node;
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String t(JsonObject frame) {
    return ((JsonString) frame.get("t")).value();
  }

  static String code(JsonObject frame) {
    return ((JsonString) frame.get("code")).value();
  }

  /** The next text frame, parsed; fails on anything else. */
  static JsonObject next(RawSocket s) throws Exception {
    RawSocket.Frame f = s.readFrame();
    assertEquals(RawSocket.TEXT, f.opcode(), () -> "a text frame, not opcode " + f.opcode() + ": " + f.text());
    return (JsonObject) Json.parse(f.text());
  }

  /** Found while building the storm: fragments were joined without bound, so a client could grow the heap at will. */
  @Test
  void fragmentsPastTheLimitJoinedCloseTheSocketWith1009() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS); RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      byte[] part = new byte[100 * 1024];
      Arrays.fill(part, (byte) ' ');
      // Never a final fragment: without the bound the node would keep every byte.
      s.write(RawSocket.frame(RawSocket.TEXT, false, part));
      s.write(RawSocket.frame(RawSocket.CONTINUATION, false, part));
      s.write(RawSocket.frame(RawSocket.CONTINUATION, false, part));
      RawSocket.Frame close = s.readFrame();
      assertAll(
          () -> assertEquals(RawSocket.CLOSE, close.opcode(), "the node closes: " + close.text()),
          () -> assertEquals(1009, close.closeCode(), "1009, too large (X_FRAME_TOO_LARGE)"),
          () -> assertTrue(close.text().contains("262144 bytes"), "the reason names the limit: " + close.text()));
    }
  }

  @Test
  void fragmentsUnderTheLimitJoinedAreOneFrame() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS); RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      byte[] hello = bytes("{\"t\":\"hello\",\"v\":1,\"build\":\"" + "é".repeat(60_000) + "\"}");
      // Split mid-way through the build string, on a character boundary.
      s.sendFragmented(RawSocket.TEXT, List.of(Arrays.copyOfRange(hello, 0, 60_000),
          Arrays.copyOfRange(hello, 60_000, hello.length)));
      assertEquals("hello", t(next(s)), "120 KB in two fragments is one frame, read whole");
    }
  }

  /** Found while building the storm: a binary frame amid a text message's fragments left them to corrupt the next. */
  @Test
  void aTextMessageBrokenOffByABinaryFrameIsForgottenAndTheNextOneIsRead() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS); RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      s.write(RawSocket.frame(RawSocket.TEXT, false, bytes("{\"t\":\"hel")));
      s.sendBinary(bytes("{\"t\":\"hello\",\"v\":1}"));
      JsonObject binary = next(s);
      s.send("{\"t\":\"hello\",\"v\":1}");
      JsonObject hello = next(s);
      assertAll(
          () -> assertEquals("refuse", t(binary)),
          () -> assertEquals("X_FRAME_INVALID", code(binary), "a binary frame is refused"),
          () -> assertEquals("hello", t(hello), "the next text frame is read alone, not after the broken-off one"));
    }
  }

  /** Found while building the storm: binary frames were each refused past the frame rate, a flood no bucket checked. */
  @Test
  void binaryFramesCountAgainstTheFrameRate() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS); RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < 300; i++) {
        out.writeBytes(RawSocket.frame(RawSocket.BINARY, true, new byte[] {1, 2, 3}));
      }
      s.write(out.toByteArray());
      List<String> codes = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        codes.add(code(next(s)));
      }
      assertAll(
          () -> assertEquals(256, codes.stream().filter("X_FRAME_INVALID"::equals).count(), "the burst is read"),
          () -> assertEquals(44, codes.stream().filter("X_FRAME_RATE_LIMIT"::equals).count(),
              "the rest is over the rate (the clock is stopped: no token comes back)"));
    }
  }

  /** The frame rate is the builder's: its rate and burst, and a flood past the burst closes the socket. */
  @Test
  void theFrameRateAndBurstAreTheNodesOwnLimits() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS, SocketLimits.DEFAULTS.withFrameRate(1, 4));
        RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      s.writeAll(Collections.nCopies(8, "{\"t\":\"hello\",\"v\":1}"));
      List<JsonObject> answers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        answers.add(next(s));
      }
      // Sent once the answers are in: the close lets go of whatever the socket still had queued.
      s.send("{\"t\":\"hello\",\"v\":1}");
      RawSocket.Frame close = s.readFrame();
      assertAll(
          () -> assertEquals(List.of("hello", "hello", "hello", "hello"),
              answers.subList(0, 4).stream().map(HostileFrameCasesTest::t).toList(), "the burst of 4 is read"),
          () -> assertEquals(List.of("X_FRAME_RATE_LIMIT", "X_FRAME_RATE_LIMIT", "X_FRAME_RATE_LIMIT",
              "X_FRAME_RATE_LIMIT"), answers.subList(4, 8).stream().map(HostileFrameCasesTest::code).toList(),
              "the next 4 are over the rate (the clock is stopped)"),
          () -> assertEquals("Over 1 frames a second (burst 4).",
              ((JsonString) answers.get(4).get("cause")).value(), "the cause names the node's own rate"),
          () -> assertEquals(RawSocket.CLOSE, close.opcode(), "a fifth refusal in a row is a flood"),
          () -> assertEquals(1008, close.closeCode(), "closed with 1008: " + close.text()));
    }
  }

  @Test
  void aFrameRateOrBurstThatIsNotPositiveIsRefused() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> SocketLimits.DEFAULTS.withFrameRate(0, 4)),
        () -> assertThrows(IllegalArgumentException.class, () -> SocketLimits.DEFAULTS.withFrameRate(-1, 4)),
        () -> assertThrows(IllegalArgumentException.class,
            () -> SocketLimits.DEFAULTS.withFrameRate(Double.NaN, 4)),
        () -> assertThrows(IllegalArgumentException.class, () -> SocketLimits.DEFAULTS.withFrameRate(64, 0)),
        () -> assertEquals(64.0, SocketLimits.DEFAULTS.framesPerSecond(), "docs/protocol.md's rate"),
        () -> assertEquals(256, SocketLimits.DEFAULTS.frameBurst(), "docs/protocol.md's burst"));
  }

  /** Found by an audit: fragments were joined before the rate was checked, and only a whole message took a token. */
  @Test
  void eachFragmentOfATextMessageTakesAToken() throws Exception {
    ManualClock clock = ManualClock.at(Instant.parse("2026-12-01T09:00:00Z"));
    try (SyncNode node = node(AdmissionLimits.DEFAULTS, SocketLimits.DEFAULTS.withFrameRate(1, 4), clock);
        RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      byte[] hello = bytes("{\"t\":\"hello\",\"v\":1}");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(RawSocket.frame(RawSocket.TEXT, false, Arrays.copyOfRange(hello, 0, 2)));
      for (int i = 2; i < 6; i++) {
        out.writeBytes(RawSocket.frame(RawSocket.CONTINUATION, false, Arrays.copyOfRange(hello, i, i + 1)));
      }
      out.writeBytes(RawSocket.frame(RawSocket.CONTINUATION, true, Arrays.copyOfRange(hello, 6, hello.length)));
      s.write(out.toByteArray());
      List<JsonObject> answers = List.of(next(s), next(s));
      clock.advance(Duration.ofSeconds(5));
      s.send("{\"t\":\"hello\",\"v\":1}");
      JsonObject after = next(s);
      assertAll(
          () -> assertEquals(List.of("X_FRAME_RATE_LIMIT", "X_FRAME_RATE_LIMIT"),
              answers.stream().map(HostileFrameCasesTest::code).toList(),
              "six fragments with a burst of 4: the fifth and the sixth are over the rate"),
          () -> assertEquals("hello", t(after), "the message they belonged to was dropped; the next one is read "
              + "alone once tokens are back: " + after));
    }
  }

  @Test
  void eachFragmentOfABinaryMessageTakesAToken() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS, SocketLimits.DEFAULTS.withFrameRate(1, 4));
        RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(RawSocket.frame(RawSocket.BINARY, false, new byte[] {1}));
      for (int i = 0; i < 3; i++) {
        out.writeBytes(RawSocket.frame(RawSocket.CONTINUATION, false, new byte[] {2}));
      }
      out.writeBytes(RawSocket.frame(RawSocket.CONTINUATION, true, new byte[] {3}));
      s.write(out.toByteArray());
      JsonObject answer = next(s);
      assertEquals("X_FRAME_RATE_LIMIT", code(answer),
          "five binary frames with a burst of 4: the final one is over the rate: " + answer);
    }
  }

  /** The input limits are the builder's, for a sub's input as for the HTTP API's. */
  @Test
  void theInputLimitsAreTheNodesOwn() throws Exception {
    ManualClock clock = ManualClock.at(Instant.parse("2026-12-01T09:00:00Z"));
    try (SyncNode node = SyncNode.builder().declarations(HostileInputTest.DECLARATIONS).transport(fixture.bus())
        .dataSource(fixture.pool()).authenticator(ChannelFixture.IDENTITIES).clock(clock).monotonic(clock::nanos)
        .inputLimits(new JsonLimits(32, 3)).ringBytes(0).listen("127.0.0.1", 0).build();
        RawSocket s = RawSocket.open(startedPort(node), "ada@acme", 0)) {
      s.send("{\"t\":\"sub\",\"sid\":\"big\",\"q\":\"notesFrom\",\"in\":{\"min\":0,\"limit\":9,"
          + "\"like\":\"%\"}}");
      JsonObject big = next(s);
      s.send("{\"t\":\"sub\",\"sid\":\"small\",\"q\":\"notesFrom\",\"in\":{\"min\":0,\"limit\":9}}");
      JsonObject small = next(s);
      assertAll(
          () -> assertEquals("X_INPUT_INVALID", code(big), "an input of 4 values passes a limit of 3: " + big),
          () -> assertEquals("snapshot", t(small), "an input within the limits is read: " + small),
          () -> assertThrows(IllegalArgumentException.class, () -> SyncNode.builder().ringBytes(-1)));
    }
  }

  static int startedPort(SyncNode node) {
    node.start();
    return node.port();
  }

  /** A handler that would throw (here the app's query source) answers X_INTERNAL and gives its slot back. */
  @Test
  void aSourceThatThrowsIsAnsweredInternalWithAnErrorIdCountedAndCostsNoSubscriptionSlot() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withSubscriptions(128, 2, 100_000));
        RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      s.writeAll(List.of("{\"t\":\"sub\",\"sid\":\"a\",\"q\":\"throwing\",\"in\":{}}",
          "{\"t\":\"sub\",\"sid\":\"b\",\"q\":\"throwing\",\"in\":{}}",
          "{\"t\":\"sub\",\"sid\":\"c\",\"q\":\"throwing\",\"in\":{}}"));
      List<JsonObject> failures = List.of(next(s), next(s), next(s));
      s.writeAll(List.of("{\"t\":\"sub\",\"sid\":\"d\",\"q\":\"notes\",\"in\":{}}",
          "{\"t\":\"sub\",\"sid\":\"e\",\"q\":\"notes\",\"in\":{}}"));
      List<String> after = List.of(t(next(s)), t(next(s)));
      String metrics = new Metrics(node.port()).scrape();
      assertAll(
          () -> assertTrue(failures.stream().allMatch(f -> t(f).equals("refuse") && code(f).equals("X_INTERNAL")),
              "each is refused X_INTERNAL: " + failures),
          () -> assertTrue(((JsonString) failures.get(0).get("cause")).value().contains("errorId "),
              "the cause names the errorId the log has: " + failures.get(0)),
          () -> assertEquals(List.of("snapshot", "snapshot"), after,
              "the actor's two subscription slots are both free: the failures gave theirs back"),
          () -> assertEquals(3.0, HostileInputTest.metric(metrics, "runnel_handler_failures_total"),
              "each failure is counted"));
    }
  }

  /** Found by an audit: a source that overflowed its stack (an Error, not an exception) kept its actor's slot. */
  @Test
  void aSourceThatOverflowsItsStackCostsNoSubscriptionSlot() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withSubscriptions(2, 2, 2));
        RawSocket s = RawSocket.open(node.port(), "ada@acme", 0)) {
      s.writeAll(List.of("{\"t\":\"sub\",\"sid\":\"a\",\"q\":\"overflowing\",\"in\":{}}",
          "{\"t\":\"sub\",\"sid\":\"b\",\"q\":\"overflowing\",\"in\":{}}",
          "{\"t\":\"sub\",\"sid\":\"c\",\"q\":\"overflowing\",\"in\":{}}"));
      List<String> failures = List.of(code(next(s)), code(next(s)), code(next(s)));
      s.writeAll(List.of("{\"t\":\"sub\",\"sid\":\"d\",\"q\":\"notes\",\"in\":{}}",
          "{\"t\":\"sub\",\"sid\":\"e\",\"q\":\"notes\",\"in\":{}}"));
      List<JsonObject> after = List.of(next(s), next(s));
      assertAll(
          () -> assertEquals(List.of("X_INTERNAL", "X_INTERNAL", "X_INTERNAL"), failures,
              "each overflow is answered X_INTERNAL and the socket stays"),
          () -> assertEquals(List.of("snapshot", "snapshot"), after.stream().map(HostileFrameCasesTest::t).toList(),
              "the socket's, actor's and tenant's two slots are all free again: " + after));
    }
  }

  /** Reads a node's {@code /metrics}. */
  record Metrics(int port) {
    String scrape() throws Exception {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    }
  }
}
