package io.runnel.wire;

import java.util.Map;
import java.util.Objects;

/**
 * Reads and writes JSON text: {@link #parse(String)} strictly (RFC 8259 plus I-JSON's unique member names and no
 * lone surrogates), {@link #write(JsonValue)} compactly, keeping member order and number text.
 */
public final class Json {

  /** The parser's nesting guard; inputs have a tighter limit, checked by {@link JsonLimits}. */
  public static final int MAX_PARSE_DEPTH = 512;

  private Json() {}

  /**
   * Parses one JSON value.
   *
   * @throws JsonSyntaxException when {@code text} is not one JSON value, repeats a member name, holds a lone
   *     surrogate or nests deeper than {@link #MAX_PARSE_DEPTH}
   */
  public static JsonValue parse(String text) {
    return JsonParser.parse(text, MAX_PARSE_DEPTH);
  }

  /** Compact JSON text for {@code value}: member order and number text as they are, minimal escaping. */
  public static String write(JsonValue value) {
    StringBuilder out = new StringBuilder();
    write(value, out, false);
    return out.toString();
  }

  static void write(JsonValue value, StringBuilder out, boolean canonical) {
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches"); a null is
    // refused, as the switch refused it.
    Objects.requireNonNull(value, "value");
    if (value instanceof JsonObject o) {
      out.append('{');
      boolean first = true;
      Iterable<Map.Entry<String, JsonValue>> members =
          canonical ? CanonicalJson.sortedMembers(o) : o.members().entrySet();
      for (Map.Entry<String, JsonValue> e : members) {
        if (!first) {
          out.append(',');
        }
        first = false;
        writeString(e.getKey(), out, canonical);
        out.append(':');
        write(e.getValue(), out, canonical);
      }
      out.append('}');
    } else if (value instanceof JsonArray a) {
      out.append('[');
      for (int i = 0; i < a.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(a.get(i), out, canonical);
      }
      out.append(']');
    } else if (value instanceof JsonString s) {
      writeString(s.value(), out, canonical);
    } else if (value instanceof JsonNumber n) {
      out.append(canonical ? EcmaNumbers.toText(n.doubleValue()) : n.text());
    } else if (value instanceof JsonBoolean b) {
      out.append(b.value() ? "true" : "false");
    } else {
      out.append("null");
    }
  }

  /**
   * Writes a string with the escaping RFC 8785 prescribes (section 3.2.2.2): {@code \"}, {@code \\}, the short
   * escapes {@code \b \f \n \r \t}, other controls as a six-character u-escape; everything else as is.
   */
  private static void writeString(String s, StringBuilder out, boolean canonical) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            appendUnicodeEscape(c, out);
          } else if (Character.isSurrogate(c) && !isPaired(s, i)) {
            if (canonical) {
              throw new IllegalArgumentException("Canonical JSON cannot hold a lone surrogate (RFC 8785, 3.2.2.2)");
            }
            appendUnicodeEscape(c, out);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static boolean isPaired(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  private static void appendUnicodeEscape(char c, StringBuilder out) {
    String hex = Integer.toHexString(c);
    out.append("\\u");
    for (int k = hex.length(); k < 4; k++) {
      out.append('0');
    }
    out.append(hex);
  }
}
