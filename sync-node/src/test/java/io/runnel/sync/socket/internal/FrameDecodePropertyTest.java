package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.protocol.FrameException;
import io.runnel.wire.ErrorCode;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The decoder's contract under hostile text: whatever a client sends, {@link FrameCodec#decode} answers a frame or
 * throws a coded {@link FrameException} ({@code X_FRAME_INVALID} or {@code X_INPUT_INVALID}), never anything else —
 * no parser exception, no {@link StackOverflowError}, no {@link IllegalArgumentException} from a record.
 */
class FrameDecodePropertyTest {

  private static final Set<ErrorCode> CODES = Set.of(ErrorCode.X_FRAME_INVALID, ErrorCode.X_INPUT_INVALID);

  /** Decodes {@code text}, failing the property on any outcome but a frame or a coded refusal. */
  private static void decodesOrRefuses(String text) {
    try {
      assertNotNull(FrameCodec.decode(text));
    } catch (FrameException e) {
      if (!CODES.contains(e.code()) || e.cause().isBlank() || e.fix().isBlank()) {
        throw new AssertionError("an uncoded refusal " + e.code() + " for " + text, e);
      }
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("decode threw " + e + " for " + (text.length() > 200 ? text.substring(0, 200) : text),
          e);
    }
  }

  @Property(tries = 2_000)
  void anyStringDecodesOrIsACodedRefusal(@ForAll String text) {
    decodesOrRefuses(text);
  }

  /** Text made of JSON's own tokens and frame vocabulary, so most of it gets past the first character. */
  @Provide
  Arbitrary<String> jsonish() {
    Arbitrary<String> tokens = Arbitraries.of("{", "}", "[", "]", ",", ":", "\"", "\"t\"", "\"hello\"", "\"sub\"",
        "\"unsub\"", "\"join\"", "\"leave\"", "\"sid\"", "\"q\"", "\"in\"", "\"v\"", "\"cursor\"", "\"qid\"",
        "\"lsn\"", "\"at\"", "\"ids\"", "\"topic\"", "\"presence\"", "\"epoch\"", "\"seq\"", "1", "-1", "0.5",
        "1e999999", "9223372036854775808", "true", "false", "null", "\"\\ud800\"", "\"\\u0000\"", "\"é\"", "🚀",
        "\\", "\"00000016b374d84800000003\"", " ", "\uFFFD");
    return tokens.list().ofMaxSize(60).map(l -> String.join("", l));
  }

  @Property(tries = 3_000)
  void jsonishTextDecodesOrIsACodedRefusal(@ForAll("jsonish") String text) {
    decodesOrRefuses(text);
  }

  /** A valid frame with one member's value replaced by anything from a list of wrong or extreme values. */
  @Provide
  Arbitrary<String> mutatedFrames() {
    List<String> frames = List.of(
        "{\"t\":\"hello\",\"v\":%s,\"build\":%s}",
        "{\"t\":\"sub\",\"sid\":%s,\"q\":\"feed\",\"in\":%s}",
        "{\"t\":\"sub\",\"sid\":\"s\",\"q\":%s,\"in\":{},\"cursor\":%s}",
        "{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"f\",\"in\":{},\"cursor\":{\"qid\":%s,"
            + "\"lsn\":\"00000016b374d84800000003\",\"at\":%s,\"ids\":[]}}",
        "{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"f\",\"in\":{},\"cursor\":{\"qid\":\"q\",\"lsn\":%s,\"at\":1,\"ids\":%s}}",
        "{\"t\":\"unsub\",\"sid\":%s,\"x\":%s}",
        "{\"t\":\"join\",\"topic\":%s,\"presence\":%s}",
        "{\"t\":\"join\",\"topic\":\"room.1\",\"cursor\":{\"epoch\":%s,\"seq\":%s}}",
        "{\"t\":%s,\"topic\":%s}");
    Arbitrary<String> values = Arbitraries.oneOf(
        Arbitraries.of("1", "-1", "0", "1.0", "1e5", "-0", "1e999999", "2147483648", "9223372036854775808",
            "true", "null", "[]", "{}", "\"\"", "\"x\"", "\"\\ud800\"", "[\"a\",1]", "{\"a\":{}}"),
        Arbitraries.strings().ofMaxLength(70).map(s -> "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""),
        Arbitraries.integers().between(1, 2_000).map(n -> "[".repeat(n) + "]".repeat(n)),
        Arbitraries.integers().between(1, 2_000).map(n -> "{\"a\":".repeat(n) + "1" + "}".repeat(n)));
    return Arbitraries.of(frames).flatMap(f -> values.list().ofSize(2).map(v -> f.formatted(v.get(0), v.get(1))));
  }

  @Property(tries = 3_000)
  void mutatedFramesDecodeOrAreACodedRefusal(@ForAll("mutatedFrames") String text) {
    decodesOrRefuses(text);
  }
}
