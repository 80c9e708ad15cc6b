package io.runnel.sync;

import io.runnel.wire.Json;
import io.runnel.wire.JsonString;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What a hostile client puts on the wire, drawn from one seeded random: valid frames, the same mutated (members
 * dropped, duplicated, of the wrong JSON type, strings and arrays up to just under the 256 KiB inbound limit, nesting
 * far past every bound, unknown kinds, lone surrogates), text that is cut or padded, random bytes, invalid UTF-8,
 * binary frames, messages split into fragments anywhere (mid-character included, and past the limit joined), floods
 * past the frame rate, pings, and a few frames that break RFC 6455 itself, after which the node ends the connection.
 *
 * <p>The frames name the hostile-input test's declarations: the live queries {@code notes} (no input),
 * {@code notesFrom} ({@code min}, {@code limit}, {@code like}?) and {@code brokenRule} (a row rule that throws), and
 * the channels of {@link ChannelFixture#DECLARATIONS}. The same seed draws the same moves.
 */
final class HostileFrames {

  /** The node's inbound frame limit, in bytes. */
  static final int LIMIT = 256 * 1024;

  /** One move of a hostile client: what it writes at once. */
  sealed interface Move permits Text, Raw, Fragments, Flood, Ping, Violation {
    /** How many WebSocket messages it sends (a fragmented message counts once, its fragments not). */
    int messages();
  }

  /** One text frame of valid UTF-8 (whatever JSON or not it holds). */
  record Text(String text) implements Move {
    @Override
    public int messages() {
      return 1;
    }
  }

  /** One frame of {@code opcode} ({@link RawSocket#TEXT} with bytes that may not be UTF-8, or a binary frame). */
  record Raw(int opcode, byte[] payload) implements Move {
    @Override
    public int messages() {
      return 1;
    }
  }

  /** One message as fragments; {@code oversized} when they pass the limit joined (the node closes with 1009). */
  record Fragments(int opcode, List<byte[]> parts, boolean oversized) implements Move {
    @Override
    public int messages() {
      return 1;
    }
  }

  /** Frames written all at once, far past the frame rate. */
  record Flood(List<String> texts) implements Move {
    @Override
    public int messages() {
      return texts.size();
    }
  }

  /** A ping with its payload. */
  record Ping(byte[] payload) implements Move {
    @Override
    public int messages() {
      return 1;
    }
  }

  /** Bytes that break RFC 6455 ({@code what} says how): the node ends the connection, possibly without a word. */
  record Violation(String what, byte[] wire) implements Move {
    @Override
    public int messages() {
      return 1;
    }
  }

  private static final String[] WRONG = {"1", "-1", "0", "1.5", "-0", "1e999999", "-1E-999999",
      "123456789012345678901234567890", "9223372036854775808", "true", "false", "null", "[]", "{}", "\"\"", "\"x\"",
      "[1,\"a\",null,{}]", "{\"a\":[{}]}", "\"\\u0000\"", "\"🚀\""};
  private static final String[] KINDS = {"subscribe", "SUB", "", "hello\\u0000", "Hello", "reconnect", "snapshot",
      "patch", "refuse", "event", " sub", "ünsub", "join.", "🚀"};
  private static final String[] TOPICS = {"room.r0", "room.r1", "room.r2", "lobby", "room.private1", "broken.x",
      "nochannel.x", "room", "room.a.b", "room.%zz", "ROOM.r1", "pair.a.b", "pair.a", "org.acme", "org.evil",
      "room.%2E%2E", ".", "..", "room.", "lobby.x"};
  private static final String[] QUERIES = {"notes", "notes", "notesFrom", "notesFrom", "brokenRule", "nope",
      "Notes", "notes ", "notesFrom.x", "__proto__"};

  private final SplittableRandom r;

  HostileFrames(long seed) {
    this.r = new SplittableRandom(seed);
  }

  /** The next move. */
  Move next() {
    int p = r.nextInt(1000);
    if (p < 150) {
      return new Text(render(valid()));
    }
    if (p < 600) {
      return new Text(render(mutated(valid())));
    }
    if (p < 700) {
      return new Text(mangled(render(r.nextBoolean() ? valid() : mutated(valid()))));
    }
    if (p < 750) {
      return new Raw(RawSocket.TEXT, randomBytes(1 + r.nextInt(r.nextInt(10) == 0 ? 20_000 : 300)));
    }
    if (p < 810) {
      return new Raw(RawSocket.TEXT, invalidUtf8(render(valid())));
    }
    if (p < 860) {
      byte[] payload = r.nextBoolean() ? randomBytes(r.nextInt(2_000))
          : render(valid()).getBytes(StandardCharsets.UTF_8);
      return new Raw(RawSocket.BINARY, payload);
    }
    if (p < 930) {
      return fragments();
    }
    if (p < 975) {
      return new Ping(randomBytes(r.nextInt(126)));
    }
    if (p < 977) {
      return violation();
    }
    if (p == 977 && r.nextInt(4) == 0) {
      return flood();
    }
    return new Text(render(valid()));
  }

  // ---- valid frames, as member lists of raw JSON text (so mutations may put anything in a member's place)

  /** A frame: its members in order, each {@code {name, raw JSON text}}; duplicates allowed. */
  private List<String[]> valid() {
    List<String[]> f = new ArrayList<>();
    switch (r.nextInt(10)) {
      case 0, 1 -> {
        f.add(m("t", q("hello")));
        f.add(m("v", "1"));
        if (r.nextBoolean()) {
          f.add(m("build", q(text(r.nextInt(20)))));
        }
      }
      case 2, 3, 4 -> {
        String query = QUERIES[r.nextInt(QUERIES.length)];
        f.add(m("t", q("sub")));
        f.add(m("sid", q(sid())));
        f.add(m("q", q(query)));
        f.add(m("in", input(query)));
        if (r.nextInt(4) == 0) {
          f.add(m("cursor", cursor(query)));
        }
      }
      case 5, 6 -> {
        f.add(m("t", q("unsub")));
        f.add(m("sid", q(sid())));
      }
      case 7, 8 -> {
        f.add(m("t", q("join")));
        f.add(m("topic", q(TOPICS[r.nextInt(TOPICS.length)])));
        if (r.nextBoolean()) {
          f.add(m("presence", "{\"name\":" + q(text(r.nextInt(12))) + "}"));
        }
        if (r.nextInt(3) == 0) {
          f.add(m("cursor", "{\"epoch\":" + q(text(1 + r.nextInt(8))) + ",\"seq\":" + r.nextInt(100) + "}"));
        }
      }
      default -> {
        f.add(m("t", q("leave")));
        f.add(m("topic", q(TOPICS[r.nextInt(TOPICS.length)])));
      }
    }
    return f;
  }

  private String sid() {
    int p = r.nextInt(20);
    if (p < 17) {
      return "s" + r.nextInt(12);
    }
    if (p < 19) {
      return text(1 + r.nextInt(30));
    }
    return "x".repeat(63 + r.nextInt(3));
  }

  private String input(String query) {
    if (!query.equals("notesFrom")) {
      return r.nextInt(8) == 0 ? "{\"extra\":1}" : "{}";
    }
    return "{\"min\":" + (10 * r.nextInt(3)) + ",\"limit\":" + (5 + 5 * r.nextInt(2))
        + (r.nextBoolean() ? ",\"like\":\"a%\"" : "") + "}";
  }

  private String cursor(String query) {
    StringBuilder ids = new StringBuilder("[");
    int n = r.nextInt(6);
    for (int i = 0; i < n; i++) {
      ids.append(i == 0 ? "" : ",").append(q(Integer.toString(r.nextInt(90))));
    }
    String qid = r.nextBoolean() ? query + ":" + hex(16) + "@acme" : text(r.nextInt(30) + 1);
    long at = r.nextBoolean() ? System.currentTimeMillis() - r.nextInt(1_000_000) : r.nextLong(0, Long.MAX_VALUE);
    return "{\"qid\":" + q(qid) + ",\"lsn\":" + q(hex(24)) + ",\"at\":" + at + ",\"ids\":" + ids + "]}";
  }

  // ---- mutations

  private List<String[]> mutated(List<String[]> f) {
    int n = 1 + r.nextInt(3);
    boolean big = false;
    for (int i = 0; i < n; i++) {
      int k = r.nextInt(100);
      if (k < 15 && !f.isEmpty()) {
        f.remove(r.nextInt(f.size()));
      } else if (k < 40 && !f.isEmpty()) {
        f.get(r.nextInt(f.size()))[1] = WRONG[r.nextInt(WRONG.length)];
      } else if (k < 48) {
        set(f, "t", r.nextInt(4) == 0 ? WRONG[r.nextInt(WRONG.length)] : "\"" + KINDS[r.nextInt(KINDS.length)] + "\"");
      } else if (k < 49 && !big) {
        big = true;
        member(f)[1] = "\"" + "ä".repeat(size(f) / 2) + "\"";
      } else if (k < 50 && !big) {
        big = true;
        member(f)[1] = hugeArray(size(f));
      } else if (k < 58) {
        member(f)[1] = deep();
      } else if (k < 65 && !f.isEmpty()) {
        String[] copy = f.get(r.nextInt(f.size()));
        f.add(r.nextInt(f.size() + 1), m(copy[0], WRONG[r.nextInt(WRONG.length)]));
      } else if (k < 75) {
        f.add(r.nextInt(f.size() + 1), m(text(1 + r.nextInt(10)), WRONG[r.nextInt(WRONG.length)]));
      } else if (k < 88) {
        set(f, "in", garbageInput());
      } else if (k < 94) {
        member(f)[1] = "\"" + (r.nextBoolean() ? "\\ud800" : "a\\udc00b") + "\"";
      } else {
        set(f, "v", WRONG[r.nextInt(8)]);
      }
    }
    return f;
  }

  /** How many bytes a member may take so the frame stays just under the limit. */
  private int size(List<String[]> f) {
    int rest = 64;
    for (String[] m : f) {
      rest += 2 * (m[0].length() + m[1].length()) + 4;
    }
    int room = Math.max(2_000, LIMIT - rest);
    return r.nextInt(20) == 0 ? room - r.nextInt(256) : 1_000 + r.nextInt(Math.max(1, Math.min(room, 16_000)));
  }

  private String hugeArray(int bytes) {
    StringBuilder b = new StringBuilder("[");
    boolean strings = r.nextBoolean();
    while (b.length() < bytes - 8) {
      b.append(b.length() == 1 ? "" : ",").append(strings ? "\"ab\"" : Integer.toString(r.nextInt(1000)));
    }
    return b.append(']').toString();
  }

  private String deep() {
    int[] depths = {31, 32, 33, 255, 256, 257, 1_000};
    boolean objects = r.nextBoolean();
    // An object level takes 6 bytes, an array level 2: both stay under the limit.
    int depth = r.nextInt(20) == 0 ? (objects ? 30_000 : 60_000) : depths[r.nextInt(depths.length)];
    StringBuilder b = new StringBuilder(depth * 6);
    for (int i = 0; i < depth; i++) {
      b.append(objects ? "{\"a\":" : "[");
    }
    b.append(r.nextBoolean() ? "1" : "");
    if (r.nextInt(4) != 0) {
      for (int i = 0; i < depth; i++) {
        b.append(objects ? "}" : "]");
      }
    }
    return b.toString();
  }

  private String garbageInput() {
    return switch (r.nextInt(7)) {
      case 0 -> "{\"min\":\"ten\",\"limit\":5}";
      case 1 -> "{\"min\":0,\"limit\":-5}";
      case 2 -> "{\"min\":0,\"limit\":2147483648}";
      case 3 -> "{\"min\":1e999999,\"limit\":1.5}";
      case 4 -> "{\"min\":0,\"limit\":5,\"like\":" + q(text(r.nextInt(40))) + "}";
      case 5 -> "{\"min\":" + deep() + "}";
      default -> "{\"min\":[0],\"limit\":{},\"like\":7}";
    };
  }

  private String mangled(String text) {
    return switch (r.nextInt(6)) {
      case 0 -> text.substring(0, r.nextInt(text.length() + 1));
      case 1 -> text + WRONG[r.nextInt(WRONG.length)];
      case 2 -> {
        char[] c = text.toCharArray();
        String junk = "{}[]\",:\\ \u0000x";
        c[r.nextInt(c.length)] = junk.charAt(r.nextInt(junk.length()));
        yield new String(c);
      }
      case 3 -> "[" + text + "]";
      case 4 -> "\uFEFF" + text;
      default -> " ".repeat(r.nextInt(2_000)) + text + "\n".repeat(r.nextInt(10));
    };
  }

  // ---- bytes

  private byte[] invalidUtf8(String text) {
    byte[][] bad = {{(byte) 0xC3, 0x28}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xE2, (byte) 0x82},
        {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}};
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    int at = text.indexOf(":\"");
    at = at < 0 || r.nextInt(3) == 0 ? r.nextInt(bytes.length + 1) : at + 2;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes, 0, at);
    out.writeBytes(bad[r.nextInt(bad.length)]);
    out.write(bytes, at, bytes.length - at);
    return out.toByteArray();
  }

  private Move fragments() {
    if (r.nextInt(40) == 0) {
      List<byte[]> parts = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        parts.add("a".repeat(100 * 1024).getBytes(StandardCharsets.US_ASCII));
      }
      return new Fragments(RawSocket.TEXT, parts, true);
    }
    int opcode = r.nextInt(6) == 0 ? RawSocket.BINARY : RawSocket.TEXT;
    List<String[]> f = r.nextBoolean() ? valid() : mutated(valid());
    if (r.nextBoolean()) {
      f.add(m("note", q("äöü€🚀".repeat(1 + r.nextInt(4)))));
    }
    byte[] bytes = render(f).getBytes(StandardCharsets.UTF_8);
    int n = 2 + r.nextInt(5);
    List<byte[]> parts = new ArrayList<>();
    int from = 0;
    for (int i = 1; i < n && from < bytes.length; i++) {
      int to = from + r.nextInt(bytes.length - from + 1);
      parts.add(Arrays.copyOfRange(bytes, from, to));
      from = to;
    }
    parts.add(Arrays.copyOfRange(bytes, from, bytes.length));
    return new Fragments(opcode, parts, bytes.length > LIMIT);
  }

  private Move flood() {
    int n = 260 + r.nextInt(200);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      texts.add(r.nextBoolean() ? "{\"t\":\"hello\",\"v\":1}" : prefix(render(mutated(valid())), 1 + r.nextInt(8)));
    }
    return new Flood(texts);
  }

  private static String prefix(String s, int n) {
    return s.substring(0, Math.min(n, s.length()));
  }

  private Move violation() {
    byte[] hello = "{\"t\":\"hello\",\"v\":1}".getBytes(StandardCharsets.UTF_8);
    return switch (r.nextInt(6)) {
      case 0 -> new Violation("a reserved opcode", RawSocket.frame(0x3, true, hello));
      case 1 -> new Violation("a continuation that continues nothing", RawSocket.frame(RawSocket.CONTINUATION, true,
          hello));
      case 2 -> {
        byte[] unmasked = new byte[2 + hello.length];
        unmasked[0] = (byte) 0x81;
        unmasked[1] = (byte) hello.length;
        System.arraycopy(hello, 0, unmasked, 2, hello.length);
        yield new Violation("an unmasked frame", unmasked);
      }
      case 3 -> {
        byte[] header = RawSocket.frame(RawSocket.TEXT, true, new byte[LIMIT + 1]);
        yield new Violation("a frame over the limit", Arrays.copyOf(header, 14 + 1024));
      }
      case 4 -> new Violation("a ping of 200 bytes", RawSocket.frame(RawSocket.PING, true, new byte[200]));
      default -> new Violation("a close with a one-byte body", RawSocket.frame(RawSocket.CLOSE, true, new byte[] {3}));
    };
  }

  private byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  // ---- helpers

  private static String[] m(String name, String raw) {
    return new String[] {name, raw};
  }

  private static String q(String s) {
    return Json.write(new JsonString(s));
  }

  private static String render(List<String[]> f) {
    StringBuilder b = new StringBuilder("{");
    for (int i = 0; i < f.size(); i++) {
      b.append(i == 0 ? "" : ",").append(q(f.get(i)[0])).append(':').append(f.get(i)[1]);
    }
    return b.append('}').toString();
  }

  private String[] member(List<String[]> f) {
    if (f.isEmpty() || r.nextInt(4) == 0) {
      String[] added = m(text(1 + r.nextInt(6)), "null");
      f.add(added);
      return added;
    }
    return f.get(r.nextInt(f.size()));
  }

  private static void set(List<String[]> f, String name, String raw) {
    for (String[] member : f) {
      if (member[0].equals(name)) {
        member[1] = raw;
        return;
      }
    }
    f.add(m(name, raw));
  }

  /** Random text without lone surrogates: ASCII, accents, CJK, astral pairs, controls. */
  private String text(int n) {
    StringBuilder b = new StringBuilder();
    String[] pool = {"a", "Z", "0", " ", ".", "%", "\"", "\\", "\u0000", "\u001f", "é", "中", "🚀", "\u2028", "_"};
    for (int i = 0; i < n; i++) {
      b.append(pool[r.nextInt(pool.length)]);
    }
    return b.toString();
  }

  private String hex(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append("0123456789abcdef".charAt(r.nextInt(16)));
    }
    return b.toString();
  }
}
