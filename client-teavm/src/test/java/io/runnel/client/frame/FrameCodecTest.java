package io.runnel.client.frame;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.FrameDecoder;
import io.runnel.protocol.FrameException;
import io.runnel.protocol.JsonTreeSink;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The client's frame codec against the golden vectors of {@code docs/protocol.md} and against malformed frames. */
class FrameCodecTest {

  private static final Path VECTORS = Path.of("..", "docs", "protocol", "vectors");

  static Stream<String> outVectors() throws IOException {
    try (Stream<Path> files = Files.list(VECTORS)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("out-")).sorted().toList().stream();
    }
  }

  private static String vector(String name) throws IOException {
    return Files.readString(VECTORS.resolve(name), StandardCharsets.UTF_8);
  }

  private static ServerFrame decode(String name) throws IOException {
    return FrameDecoder.server(Json.parse(vector(name)));
  }

  @ParameterizedTest
  @MethodSource("outVectors")
  void everyNodeVectorDecodesToTheKindItsTNames(String name) throws IOException {
    ServerFrame f = decode(name);
    String t = ((JsonString) ((JsonObject) Json.parse(vector(name))).get("t")).value();
    String kind = switch (f) {
      case ServerFrame.Hello h -> "hello";
      case ServerFrame.Snapshot s -> "snapshot";
      case ServerFrame.Patch p -> "patch";
      case ServerFrame.Refuse r -> "refuse";
      case ServerFrame.Records r -> "records";
      case ServerFrame.Gap g -> "gap";
      case ServerFrame.Event e -> "event";
      case ServerFrame.Presence p -> "presence";
      case ServerFrame.PresenceDiff d -> "presence-diff";
      case ServerFrame.Reconnect r -> "reconnect";
    };
    assertEquals(t, kind, name);
  }

  @Test
  void thereAreNodeVectorsForEveryKind() throws IOException {
    assertEquals(15, outVectors().count(), "out- vectors in " + VECTORS.toAbsolutePath());
  }

  @Test
  void helloVectorsCarryActorHeartbeatLsnAndTheOptionalUpdateFlag() throws IOException {
    ServerFrame.Hello signed = assertInstanceOf(ServerFrame.Hello.class, decode("out-hello.json"));
    ServerFrame.Hello anon = assertInstanceOf(ServerFrame.Hello.class, decode("out-hello-anonymous.json"));
    assertAll(
        () -> assertEquals(
            new ServerFrame.Hello(1, "node-7f3a", "u-42", 10000, Position.parse("00000016b374d84800000003"), true),
            signed, "signed-in hello"),
        () -> assertNull(anon.actor(), "an anonymous actor is null"),
        () -> assertNull(anon.updateAvailable(), "no updateAvailable when the node does not know"),
        () -> assertNull(signed.lagMs(), "no lagMs before the node's first position"),
        () -> assertNull(signed.asOf(), "no asOf before the node's first position"));
  }

  @Test
  void aHelloOfANodeWithAPositionCarriesLagAndAsOf() throws IOException {
    assertEquals(new ServerFrame.Hello(1, "node-7f3a", "u-42", 10000, Position.parse("00000016b374d84800000003"), 420L,
        1_732_880_000_000L, null), decode("out-hello-as-of.json"));
  }

  @Test
  void snapshotVectorKeepsRowsAsJsonInQueryOrder() throws IOException {
    ServerFrame.Snapshot s = assertInstanceOf(ServerFrame.Snapshot.class, decode("out-snapshot.json"));
    assertAll(
        () -> assertEquals("s1", s.sid()),
        () -> assertEquals(List.of("9007199254740993", "9007199254740994"),
            s.records().stream().map(WireRecord::key).toList(), "keys in query order"),
        () -> assertEquals("posts", s.records().get(0).type()),
        () -> assertEquals("{\"weight\":1.50}", Json.write(s.records().get(0).row().get("meta")),
            "jsonb keeps its number text"),
        () -> assertEquals(
            new Cursor("feed:d94946c8447dc964@acme", Position.parse("00000016b374d84800000000"), 1732880000000L),
            s.cursor()));
  }

  @Test
  void patchVectorTellsPlacementFromUpdateInPlaceAndDelete() throws IOException {
    ServerFrame.Patch p = assertInstanceOf(ServerFrame.Patch.class, decode("out-patch.json"));
    ServerFrame.Patch resumed = assertInstanceOf(ServerFrame.Patch.class, decode("out-patch-resumed.json"));
    assertAll(
        () -> assertEquals("9007199254740993", assertInstanceOf(Op.Place.class, p.ops().get(0)).after(),
            "a put with after places"),
        () -> assertEquals("9007199254740993", assertInstanceOf(Op.Update.class, p.ops().get(1)).key(),
            "a put without after updates in place"),
        () -> assertEquals(new Op.Del("posts", "9007199254740994"), p.ops().get(2)),
        () -> assertEquals(List.of("0123456789abcdef0123456789abcdef"), p.writes()),
        () -> assertTrue(resumed.ops().isEmpty(), "the resume answer has no ops"));
  }

  @Test
  void refuseVectorsCarrySidTopicOrNeither() throws IOException {
    ServerFrame.Refuse sub = assertInstanceOf(ServerFrame.Refuse.class, decode("out-refuse.json"));
    ServerFrame.Refuse topic = assertInstanceOf(ServerFrame.Refuse.class, decode("out-refuse-topic.json"));
    ServerFrame.Refuse frame = assertInstanceOf(ServerFrame.Refuse.class, decode("out-refuse-frame.json"));
    assertAll(
        () -> assertEquals("s1", sub.sid()),
        () -> assertEquals("X_LIVE_QUERY_UNKNOWN", sub.code()),
        () -> assertEquals("org.acme", topic.topic()),
        () -> assertNull(frame.sid(), "no sid"),
        () -> assertNull(frame.topic(), "no topic"));
  }

  @Test
  void channelVectorsDecode() throws IOException {
    ServerFrame.Records r = assertInstanceOf(ServerFrame.Records.class, decode("out-records.json"));
    ServerFrame.PresenceDiff d = assertInstanceOf(ServerFrame.PresenceDiff.class, decode("out-presence-diff.json"));
    ServerFrame.Presence p = assertInstanceOf(ServerFrame.Presence.class, decode("out-presence.json"));
    ServerFrame.Reconnect rc = assertInstanceOf(ServerFrame.Reconnect.class, decode("out-reconnect.json"));
    assertAll(
        () -> assertNull(assertInstanceOf(Op.Place.class, r.ops().get(0)).after(), "after null places first"),
        () -> assertEquals(42, r.seq()),
        () -> assertEquals(List.of("u-43"), d.leaves()),
        () -> assertEquals("Ada", ((JsonString) p.members().get(0).meta().get("name")).value()),
        () -> assertEquals(new ServerFrame.Reconnect(2500, "drain"), rc));
  }

  @Test
  void clientFramesEncodeToTheInVectorsByteForByte() throws IOException {
    JsonObject subIn = (JsonObject) ((JsonObject) Json.parse(vector("in-sub.json"))).get("in");
    JsonObject resumeIn = (JsonObject) ((JsonObject) Json.parse(vector("in-sub-resume.json"))).get("in");
    assertAll(
        () -> assertEquals(vector("in-hello.json"),
            Json.write(JsonTreeSink.toJson(new ClientFrame.Hello("2024.11.29-3f2a")))),
        () -> assertEquals(vector("in-sub.json"),
            Json.write(JsonTreeSink.toJson(new ClientFrame.Sub("s1", "feed", subIn, null)))),
        () -> assertEquals(vector("in-sub-resume.json"),
            Json.write(JsonTreeSink.toJson(new ClientFrame.Sub("s1", "feed", resumeIn,
                ResumeCursor.of(new Cursor("feed:d94946c8447dc964@acme",
                    Position.parse("00000016b374d84800000003"), 1732880000000L),
                    List.of("9007199254740993", "9007199254740995")))))),
        () -> assertEquals(vector("in-unsub.json"), Json.write(JsonTreeSink.toJson(new ClientFrame.Unsub("s1")))),
        () -> assertEquals(vector("in-join.json"), Json.write(JsonTreeSink.toJson(new ClientFrame.Join("org.acme",
            new TopicCursor("5f0c2a9e81d4b3a7", 42), JsonObject.builder().put("name", "Ada").build())))),
        () -> assertEquals(vector("in-leave.json"), Json.write(JsonTreeSink.toJson(new ClientFrame.Leave("org.acme")))),
        () -> assertEquals("{\"t\":\"hello\",\"v\":1}",
            Json.write(JsonTreeSink.toJson(new ClientFrame.Hello((String) null))),
            "no build, no member"));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "[]",
      "{}",
      "{\"t\":7}",
      "{\"t\":\"subscribe\"}",
      "{\"t\":\"hello\",\"v\":1,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":0,\"lsn\":\"00000016b374d84800000000\"}",
      "{\"t\":\"hello\",\"v\":1,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":10,\"lsn\":\"0/16B374D8\"}",
      "{\"t\":\"hello\",\"v\":2,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":10,\"lsn\":\"00000016b374d84800000000\"}",
      "{\"t\":\"hello\",\"v\":1,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":10,\"lsn\":\"00000016b374d84800000000\","
          + "\"lagMs\":5}",
      "{\"t\":\"hello\",\"v\":1,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":10,\"lsn\":\"00000016b374d84800000000\","
          + "\"lagMs\":\"5\",\"asOf\":1732880000000}",
      "{\"t\":\"hello\",\"v\":1,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":10,\"lsn\":\"00000016b374d84800000000\","
          + "\"lagMs\":-1,\"asOf\":1732880000000}",
      "{\"t\":\"hello\",\"v\":4294967297,\"node\":\"n\",\"actor\":null,\"heartbeatMs\":10,"
          + "\"lsn\":\"00000016b374d84800000000\"}",
      "{\"t\":\"snapshot\",\"sid\":\"s1\",\"records\":[{\"type\":\"posts\",\"key\":1,\"row\":{}}],"
          + "\"cursor\":{\"qid\":\"q\",\"lsn\":\"00000016b374d84800000000\",\"at\":1}}",
      "{\"t\":\"patch\",\"sid\":\"s1\",\"ops\":[{\"op\":\"move\",\"type\":\"posts\",\"key\":\"1\"}],\"writes\":[],"
          + "\"cursor\":{\"qid\":\"q\",\"lsn\":\"00000016b374d84800000000\",\"at\":1}}",
      "{\"t\":\"patch\",\"sid\":\"s1\",\"ops\":[],\"writes\":[1],"
          + "\"cursor\":{\"qid\":\"q\",\"lsn\":\"00000016b374d84800000000\",\"at\":1}}",
      "{\"t\":\"reconnect\",\"delayMs\":-1,\"reason\":\"drain\"}",
      "{\"t\":\"reconnect\",\"delayMs\":1.5,\"reason\":\"drain\"}",
      "{\"t\":\"reconnect\",\"delayMs\":99999999999999999999,\"reason\":\"drain\"}"})
  void malformedFramesAreRefusedAsFrameInvalidNamingWhatIsWrong(String text) {
    JsonValue json = Json.parse(text);
    FrameException e = assertThrows(FrameException.class, () -> FrameDecoder.server(json), text);
    assertEquals(ErrorCode.X_FRAME_INVALID, e.code(), e.getMessage());
  }

  @Test
  void unknownMembersAreIgnoredSoANewerNodeMayAddFields() {
    ServerFrame f = FrameDecoder.server(
        Json.parse("{\"t\":\"reconnect\",\"delayMs\":5,\"reason\":\"x\",\"extra\":[]}"));
    assertEquals(new ServerFrame.Reconnect(5, "x"), f);
  }
}
