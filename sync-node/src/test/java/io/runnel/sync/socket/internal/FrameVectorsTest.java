package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The golden vectors in {@code docs/protocol/vectors/}: the bytes the encoder writes, the frames the decoder reads. */
class FrameVectorsTest {

  private static String vector(String name) throws IOException {
    return new String(Files.readAllBytes(FrameVectors.DIR.resolve(name)), StandardCharsets.UTF_8);
  }

  @Test
  void eachOutboundFrameEncodesToItsVectorByteForByte() throws IOException {
    List<Executable> checks = new ArrayList<>();
    for (var e : FrameVectors.outbound().entrySet()) {
      String expected = vector(e.getKey());
      checks.add(() -> assertEquals(expected, FrameCodec.encode(e.getValue()),
          e.getKey() + " is what the encoder writes"));
    }
    assertAll(checks);
  }

  @Test
  void eachInboundVectorDecodesToItsFrameAndEncodesBackToTheSameBytes() throws IOException {
    List<Executable> checks = new ArrayList<>();
    for (var e : FrameVectors.inbound().entrySet()) {
      String text = vector(e.getKey());
      checks.add(() -> assertEquals(e.getValue(), FrameCodec.decode(text), e.getKey() + " decodes to its frame"));
      checks.add(() -> assertEquals(text, FrameCodec.encode(e.getValue()),
          e.getKey() + " is what a Java client writes"));
    }
    assertAll(checks);
  }

  @Test
  void everyVectorFileIsCheckedAndEveryFrameKindHasOne() throws IOException {
    Set<String> files = new TreeSet<>();
    try (Stream<Path> list = Files.list(FrameVectors.DIR)) {
      list.forEach(p -> files.add(p.getFileName().toString()));
    }
    Set<String> checked = new TreeSet<>(FrameVectors.outbound().keySet());
    checked.addAll(FrameVectors.inbound().keySet());
    Set<String> outKinds = new TreeSet<>();
    FrameVectors.outbound().values().forEach(f -> outKinds.add(f.t()));
    Set<String> inKinds = new TreeSet<>();
    FrameVectors.inbound().values().forEach(f -> inKinds.add(f.t()));
    assertAll(
        () -> assertEquals(checked, files, "no vector file goes unchecked, none is missing"),
        () -> assertEquals(Set.of("hello", "snapshot", "patch", "refuse", "records", "gap", "event", "presence",
            "presence-diff", "reconnect"), outKinds, "every node frame kind has a vector"),
        () -> assertEquals(Set.of("hello", "sub", "unsub", "join", "leave"), inKinds,
            "every client frame kind has a vector"),
        () -> assertTrue(files.stream().allMatch(f -> f.startsWith("in-") || f.startsWith("out-")),
            "vector names say their direction"));
  }

  @Test
  void vectorsAreCompactUtf8WithoutATrailingNewline() throws IOException {
    List<Executable> checks = new ArrayList<>();
    for (String name : FrameVectors.outbound().keySet()) {
      String text = vector(name);
      checks.add(() -> assertTrue(!text.endsWith("\n") && !text.contains("\n") && text.startsWith("{\"t\":\""),
          name + " is one line of compact JSON opening with t"));
    }
    String snapshot = vector("out-snapshot.json");
    checks.add(() -> assertTrue(snapshot.contains("\"id\":\"9007199254740993\"")
        && snapshot.contains("\"price\":\"0.10\"") && snapshot.contains("\"weight\":1.50")
        && snapshot.contains("Grüße, 世界 🚀"),
        "int8 and numeric travel as strings, jsonb numbers keep their text, unicode travels unescaped"));
    assertAll(checks);
  }
}
