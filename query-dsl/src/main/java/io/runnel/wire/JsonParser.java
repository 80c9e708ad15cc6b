package io.runnel.wire;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A strict RFC 8259 parser into {@link JsonValue}: one value with optional white space around it; duplicate member
 * names, lone surrogates and nesting past {@code maxDepth} are refused (RFC 7493, I-JSON), so that every value it
 * returns has exactly one canonical form.
 */
final class JsonParser {

  private final String text;
  private final int maxDepth;
  private int pos;

  private JsonParser(String text, int maxDepth) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  static JsonValue parse(String text, int maxDepth) {
    JsonParser p = new JsonParser(text, maxDepth);
    p.skipWhitespace();
    JsonValue v = p.value(0);
    p.skipWhitespace();
    if (p.pos != text.length()) {
      throw p.error("unexpected text after the value");
    }
    return v;
  }

  private JsonValue value(int depth) {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> new JsonString(string());
      case 't' -> literal("true", JsonBoolean.TRUE);
      case 'f' -> literal("false", JsonBoolean.FALSE);
      case 'n' -> literal("null", JsonNull.NULL);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected character '" + printable(c) + "'");
      }
    };
  }

  private JsonValue literal(String word, JsonValue value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected token");
    }
    pos += word.length();
    return value;
  }

  private JsonObject object(int depth) {
    checkDepth(depth);
    pos++;
    LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return new JsonObject(members);
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      int at = pos;
      String name = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      JsonValue v = value(depth);
      if (members.put(name, v) != null) {
        pos = at;
        throw error("duplicate member name '" + name + "'");
      }
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == '}') {
        return new JsonObject(members);
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or '}'");
      }
    }
  }

  private JsonArray array(int depth) {
    checkDepth(depth);
    pos++;
    List<JsonValue> elements = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return new JsonArray(elements);
    }
    while (true) {
      skipWhitespace();
      elements.add(value(depth));
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == ']') {
        return new JsonArray(elements);
      }
      if (c != ',') {
        pos--;
        throw error("expected ',' or ']'");
      }
    }
  }

  private String string() {
    pos++;
    StringBuilder out = null;
    int start = pos;
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        String s = out == null ? text.substring(start, pos) : out.append(text, start, pos).toString();
        pos++;
        return s;
      }
      if (c < 0x20) {
        throw error("unescaped control character in a string");
      }
      if (Character.isHighSurrogate(c)) {
        if (pos + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(pos + 1))) {
          throw error("lone surrogate in a string");
        }
        pos += 2;
        continue;
      }
      if (Character.isLowSurrogate(c)) {
        throw error("lone surrogate in a string");
      }
      if (c != '\\') {
        pos++;
        continue;
      }
      if (out == null) {
        out = new StringBuilder();
      }
      out.append(text, start, pos);
      pos++;
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"' -> out.append('"');
        case '\\' -> out.append('\\');
        case '/' -> out.append('/');
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          char u = hex4();
          if (Character.isHighSurrogate(u)) {
            if (!text.startsWith("\\u", pos)) {
              throw error("lone surrogate escape");
            }
            pos += 2;
            char low = hex4();
            if (!Character.isLowSurrogate(low)) {
              throw error("lone surrogate escape");
            }
            out.append(u).append(low);
          } else if (Character.isLowSurrogate(u)) {
            throw error("lone surrogate escape");
          } else {
            out.append(u);
          }
        }
        default -> {
          pos--;
          throw error("invalid escape '\\" + printable(e) + "'");
        }
      }
      start = pos;
    }
  }

  private char hex4() {
    if (pos + 4 > text.length()) {
      throw error("truncated \\u escape");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      char h = text.charAt(pos++);
      int d = h >= '0' && h <= '9' ? h - '0'
          : h >= 'a' && h <= 'f' ? h - 'a' + 10
          : h >= 'A' && h <= 'F' ? h - 'A' + 10
          : -1;
      if (d < 0) {
        pos--;
        throw error("invalid hex digit in \\u escape");
      }
      v = v * 16 + d;
    }
    return (char) v;
  }

  private JsonNumber number() {
    int start = pos;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        pos++;
      } else {
        break;
      }
    }
    String s = text.substring(start, pos);
    if (!JsonNumber.isJsonNumber(s)) {
      pos = start;
      throw error("malformed number '" + s + "'");
    }
    return new JsonNumber(s);
  }

  private void checkDepth(int depth) {
    if (depth > maxDepth) {
      throw error("nesting deeper than " + maxDepth);
    }
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    return text.charAt(pos);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        pos++;
      } else {
        return;
      }
    }
  }

  private JsonSyntaxException error(String problem) {
    return new JsonSyntaxException(problem, pos);
  }

  private static String printable(char c) {
    if (c >= 0x20 && c <= 0x7e) {
      return String.valueOf(c);
    }
    String hex = "0123456789abcdef";
    return "\\u" + hex.charAt(c >> 12) + hex.charAt((c >> 8) & 0xf) + hex.charAt((c >> 4) & 0xf) + hex.charAt(c & 0xf);
  }
}
