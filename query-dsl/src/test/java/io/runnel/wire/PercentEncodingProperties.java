package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The hand-made UTF-8 of {@link PercentEncoding#encode} writes exactly what percent-encoding the bytes of Java's
 * own encoder ({@code getBytes(UTF_8)}) writes, lone and paired surrogates included, and {@code decode} reads back
 * every string without lone surrogates.
 */
class PercentEncodingProperties {

  /** The encoding as it was written first: Java's UTF-8 encoder, each byte but the unreserved ones escaped. */
  private static String reference(String value) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '~';
      out.append(unreserved ? Character.toString(c) : "%" + "0123456789ABCDEF".charAt(c >> 4)
          + "0123456789ABCDEF".charAt(c & 0xf));
    }
    return out.toString();
  }

  @Provide
  Arbitrary<String> anyUtf16() {
    return Arbitraries.strings().withChars(Character.MIN_VALUE, Character.MAX_VALUE).ofMaxLength(12);
  }

  @Provide
  Arbitrary<String> surrogateHeavy() {
    return Arbitraries.strings().withChars('\ud800', '\udbff').withChars('\udc00', '\udfff').withChars("a.%é€")
        .ofMaxLength(8);
  }

  @Property(tries = 2000)
  void encodesAsJavasUtf8EncoderDoes(@ForAll("anyUtf16") String value) {
    assertEquals(reference(value), PercentEncoding.encode(value));
  }

  @Property(tries = 2000)
  void encodesSurrogatesAsJavasUtf8EncoderDoes(@ForAll("surrogateHeavy") String value) {
    assertEquals(reference(value), PercentEncoding.encode(value));
  }

  @Example
  void encodesEachWidthOfUtf8AndReadsItBack() {
    String value = "a.b é€😀 ~_-";
    assertAll(
        () -> assertEquals("a%2Eb%20%C3%A9%E2%82%AC%F0%9F%98%80%20~_-", PercentEncoding.encode(value)),
        () -> assertEquals(value, PercentEncoding.decode(PercentEncoding.encode(value))),
        () -> assertEquals("%3Fx%3F", PercentEncoding.encode("\udc00x\ud800"), "lone surrogates, as Java's '?'"));
  }
}
