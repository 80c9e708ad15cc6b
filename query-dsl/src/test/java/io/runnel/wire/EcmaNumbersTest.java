package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link EcmaNumbers#toText(double)}: ECMAScript's Number::toString, as RFC 8785 section 3.2.2.3 requires. Vectors
 * are RFC 8785 Appendix B's; each was also checked against node's {@code String(x)}.
 */
class EcmaNumbersTest {

  /** The shape of ECMAScript's output: plain integer, plain fraction, or d[.ddd]e±n; no trailing zeros. */
  private static final Pattern ECMA_SHAPE = Pattern.compile(
      "-?(0|[1-9][0-9]*(\\.[0-9]*[1-9])?|0\\.0*[1-9][0-9]*|[1-9](\\.[0-9]*[1-9])?e[+-][1-9][0-9]*)");

  private static final Path NODE = Path.of("/usr/bin/node");

  private static double bits(String hex) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(hex, 16));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "0000000000000000, 0",
      "8000000000000000, 0",
      "7fefffffffffffff, 1.7976931348623157e+308",
      "ffefffffffffffff, -1.7976931348623157e+308",
      "4340000000000000, 9007199254740992",
      "c340000000000000, -9007199254740992",
      "4430000000000000, 295147905179352830000",
      "44b52d02c7e14af5, 9.999999999999997e+22",
      "44b52d02c7e14af6, 1e+23",
      "44b52d02c7e14af7, 1.0000000000000001e+23",
      "444b1ae4d6e2ef4e, 999999999999999700000",
      "444b1ae4d6e2ef4f, 999999999999999900000",
      "444b1ae4d6e2ef50, 1e+21",
      "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
      "3eb0c6f7a0b5ed8d, 0.000001",
      "41b3de4355555553, 333333333.3333332",
      "41b3de4355555554, 333333333.33333325",
      "41b3de4355555555, 333333333.3333333",
      "41b3de4355555556, 333333333.3333334",
      "41b3de4355555557, 333333333.33333343",
      "becbf647612f3696, -0.0000033333333333333333",
      "43143ff3c1cb0959, 1424953923781206.2",
      // Not in the RFC's table; node prints it so (the least double above 0.000001).
      "3eb0c6f7a0b5ed8e, 0.0000010000000000000002"})
  void rfc8785AppendixBNumberIsWrittenAsEcmaScriptWritesIt(String hex, String expected) {
    assertAll(
        () -> assertEquals(expected, EcmaNumbers.toText(bits(hex)), "EcmaNumbers.toText"),
        () -> assertEquals(expected, CanonicalJson.write(JsonNumber.of(bits(hex))), "CanonicalJson via JsonNumber"));
  }

  @Test
  void subnormalsTakeTheShortestDigitsAsEcmaScriptDoes() {
    assertAll(
        () -> assertEquals("5e-324", EcmaNumbers.toText(bits("0000000000000001")), "RFC 8785 Appendix B"),
        () -> assertEquals("-5e-324", EcmaNumbers.toText(bits("8000000000000001")), "RFC 8785 Appendix B"),
        () -> assertEquals("1e-323", EcmaNumbers.toText(2 * Double.MIN_VALUE), "node: String(1e-323)"),
        () -> assertEquals("4.94e-322", EcmaNumbers.toText(4.9406564584124654e-322), "node: String(4.94e-322)"));
  }

  @Test
  void nanAndInfinitiesAreRefused() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> EcmaNumbers.toText(Double.NaN), "NaN"),
        () -> assertThrows(IllegalArgumentException.class, () -> EcmaNumbers.toText(bits("7fffffffffffffff")),
            "NaN (RFC 8785 Appendix B)"),
        () -> assertThrows(IllegalArgumentException.class, () -> EcmaNumbers.toText(bits("7ff0000000000000")),
            "Infinity (RFC 8785 Appendix B)"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> EcmaNumbers.toText(Double.NEGATIVE_INFINITY), "-Infinity"),
        () -> assertThrows(IllegalArgumentException.class, () -> JsonNumber.of(Double.NaN), "JsonNumber.of"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "1e21, 1e+21", "999999999999999999999, 1e+21", "1e20, 100000000000000000000", "123e18, 123000000000000000000",
      "1.5e21, 1.5e+21", "1e-6, 0.000001", "1.5e-6, 0.0000015", "1e-7, 1e-7", "1.5e-7, 1.5e-7", "0.1, 0.1",
      "100, 100", "0.001, 0.001", "1234567.125, 1234567.125", "10000000, 10000000", "-2.5, -2.5", "1e300, 1e+300",
      "2.2250738585072014e-308, 2.2250738585072014e-308"})
  void layoutSwitchesAtTheEcmaScriptThresholds(double value, String expected) {
    assertEquals(expected, EcmaNumbers.toText(value));
  }

  @Property(tries = 2000)
  void textParsesBackToTheSameDoubleAndHasEcmaScriptShape(@ForAll("finiteDoubles") double d) {
    String text = EcmaNumbers.toText(d);
    assertAll("toText(" + d + ") = " + text,
        () -> assertEquals(d == 0 ? 0.0 : d, Double.parseDouble(text), "round trip (both zeros read back as 0)"),
        () -> assertTrue(ECMA_SHAPE.matcher(text).matches(), "ECMAScript shape"),
        () -> assertTrue(JsonNumber.isJsonNumber(text), "a JSON number"));
  }

  @Provide
  Arbitrary<Double> finiteDoubles() {
    return RoundTripProperties.finiteDoubles();
  }

  /**
   * About 2000 finite doubles from a fixed seed (random bit patterns of every normal exponent, short decimals,
   * integers near 2^53, neighbours of powers of ten and powers of two, both signs), compared with what node's
   * {@code String(x)} prints for the same IEEE bits.
   */
  @Test
  void toTextMatchesNodeForTwoThousandNormalDoubles(@TempDir Path dir) throws Exception {
    SplittableRandom random = new SplittableRandom(8785);
    List<Double> values = new ArrayList<>();
    values.add(0.0);
    values.add(-0.0);
    values.add(Double.MIN_NORMAL);
    values.add(Double.MAX_VALUE);
    for (int p = -30; p <= 30; p++) {
      double pow = Double.parseDouble("1e" + p);
      values.add(pow);
      values.add(Math.nextUp(pow));
      values.add(Math.nextDown(pow));
    }
    for (int e = -1022; e <= 1023; e += 5) {
      values.add(Math.scalb(1.0, e));
    }
    for (int i = 0; i < 250; i++) {
      values.add((double) (random.nextLong(1L << 60) >> random.nextInt(50)));
    }
    for (int i = 0; i < 300; i++) {
      String digits = Long.toString(random.nextLong(1, 100_000_000_000_000_000L));
      digits = digits.substring(0, 1 + random.nextInt(Math.min(digits.length(), 17)));
      values.add(Double.parseDouble(digits + "e" + (random.nextInt(61) - 30)));
    }
    while (values.size() < 2000) {
      long exponent = 1 + random.nextLong(2046);
      long mantissa = random.nextLong(1L << 52);
      values.add(Double.longBitsToDouble(exponent << 52 | mantissa));
    }
    List<Double> signed = new ArrayList<>();
    for (double v : values) {
      signed.add(random.nextBoolean() ? -v : v);
    }
    assertMatchesNode(signed, dir);
  }

  @Test
  void subnormalsMatchNode(@TempDir Path dir) throws Exception {
    SplittableRandom random = new SplittableRandom(324);
    List<Double> values = new ArrayList<>();
    for (int k = 1; k <= 200; k++) {
      values.add(k * Double.MIN_VALUE);
    }
    for (int i = 0; i < 300; i++) {
      double v = Double.longBitsToDouble(random.nextLong(1, 1L << 52));
      values.add(random.nextBoolean() ? -v : v);
    }
    assertMatchesNode(values, dir);
  }

  private static void assertMatchesNode(List<Double> values, Path dir) throws IOException, InterruptedException {
    if (!Files.isExecutable(NODE)) {
      if (System.getenv("CI") != null) {
        fail("CI is set but " + NODE + " is missing: the ECMAScript comparison must run in CI");
      }
      Assumptions.abort(NODE + " is missing; the ECMAScript comparison is skipped outside CI");
    }
    Path input = dir.resolve("doubles.txt");
    Path script = dir.resolve("print.js");
    Path output = dir.resolve("node-out.txt");
    Path errors = dir.resolve("node-err.txt");
    List<String> hex = new ArrayList<>(values.size());
    for (double v : values) {
      hex.add(Long.toHexString(Double.doubleToRawLongBits(v)));
    }
    Files.write(input, hex, StandardCharsets.UTF_8);
    Files.writeString(script, """
        const lines = require('fs').readFileSync(process.argv[2], 'utf8').split('\\n').filter(l => l.length > 0);
        const bits = new BigUint64Array(1);
        const f = new Float64Array(bits.buffer);
        const out = [];
        for (const l of lines) { bits[0] = BigInt('0x' + l); out.push(String(f[0])); }
        process.stdout.write(out.join('\\n') + '\\n');
        """, StandardCharsets.UTF_8);
    Process node = new ProcessBuilder(NODE.toString(), script.toString(), input.toString())
        .redirectOutput(output.toFile())
        .redirectError(errors.toFile())
        .start();
    if (!node.waitFor(60, TimeUnit.SECONDS)) {
      node.destroyForcibly();
      fail("node did not finish within 60 s");
    }
    assertEquals(0, node.exitValue(), () -> "node failed: " + readQuietly(errors));
    List<String> expected = Files.readAllLines(output, StandardCharsets.UTF_8);
    assertEquals(values.size(), expected.size(), "one line per double from node");
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      String ours = EcmaNumbers.toText(values.get(i));
      if (!ours.equals(expected.get(i))) {
        mismatches.add(hex.get(i) + ": node " + expected.get(i) + ", EcmaNumbers " + ours);
      }
    }
    assertTrue(mismatches.isEmpty(),
        () -> mismatches.size() + " of " + values.size() + " differ from node, first: "
            + mismatches.subList(0, Math.min(10, mismatches.size())));
  }

  private static String readQuietly(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
