package io.runnel.sync.socket.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.FrameException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads a frame's text into a {@link JsonObject} with Jackson's streaming parser, refusing what is not one JSON
 * object with unique member names and no lone surrogates.
 *
 * <p>Hostile nesting is stopped by Jackson's {@link StreamReadConstraints} ({@value #MAX_DEPTH} levels, the frame's
 * own object counting as one) before this reader's recursion can grow: past it, the read ends with a coded
 * {@link FrameException}, never a {@link StackOverflowError}. A limit passed inside {@code in} is the input's fault
 * ({@code X_INPUT_INVALID}, field {@code sub.in}) and the exception carries the frame's {@code sid}: read before
 * {@code in}, or else found by blanking {@code in}'s text (a string-aware bracket scan, no recursion) and reading
 * the rest again.
 */
final class FrameReader {

  /** The deepest nesting a frame may have; the frame's object is level 1, so {@code in} may nest 255 levels. */
  static final int MAX_DEPTH = 256;

  private static final JsonFactory FACTORY = JsonFactory.builder()
      // Shared, not per thread: each socket reads on a virtual thread of its own (see FrameWriter).
      .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private static final String FIX = "Send one JSON object per text frame, as docs/protocol.md (\"Socket frames\") "
      + "describes.";

  private final String text;
  private final LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
  private @Nullable String member;
  private int memberStart = -1;
  private int deepest;

  private FrameReader(String text) {
    this.text = text;
  }

  /**
   * The frame's members.
   *
   * @throws FrameException {@code X_FRAME_INVALID} for text that is not one JSON object, {@code X_INPUT_INVALID} for
   *     an {@code in} past the reader's limits
   */
  static JsonObject read(String text) {
    return new FrameReader(text).frame(true);
  }

  private JsonObject frame(boolean recoverSid) {
    try (JsonParser p = FACTORY.createParser(text)) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw whole(first == null ? "The frame is empty."
            : "The frame must be a JSON object, not " + kind(first) + ".");
      }
      deepest = 1;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = checked(p.currentName());
        JsonToken token = p.nextToken();
        member = name;
        memberStart = (int) p.currentTokenLocation().getCharOffset();
        members.put(name, value(p, token, 1));
        member = null;
      }
      if (p.nextToken() != null) {
        throw whole("The frame is not valid JSON: text follows the frame's object at offset "
            + p.currentTokenLocation().getCharOffset() + ".");
      }
      return new JsonObject(members);
    } catch (StreamConstraintsException e) {
      throw beyondLimits(recoverSid);
    } catch (JsonProcessingException e) {
      throw whole("The frame is not valid JSON: " + e.getOriginalMessage() + " at offset "
          + (e.getLocation() == null ? "?" : Long.toString(e.getLocation().getCharOffset())) + ".");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The value starting at {@code token}, inside a container at {@code depth}. */
  private JsonValue value(JsonParser p, @Nullable JsonToken token, int depth) throws IOException {
    if (token == null) {
      throw whole("The frame is not valid JSON: it ends inside a value.");
    }
    return switch (token) {
      case START_OBJECT -> {
        deepest = Math.max(deepest, depth + 1);
        LinkedHashMap<String, JsonValue> out = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = checked(p.currentName());
          out.put(name, value(p, p.nextToken(), depth + 1));
        }
        yield new JsonObject(out);
      }
      case START_ARRAY -> {
        deepest = Math.max(deepest, depth + 1);
        List<JsonValue> out = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
          out.add(value(p, t, depth + 1));
        }
        yield new JsonArray(out);
      }
      case VALUE_STRING -> new JsonString(checked(p.getText()));
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number(p.getText());
      case VALUE_TRUE -> JsonBoolean.TRUE;
      case VALUE_FALSE -> JsonBoolean.FALSE;
      case VALUE_NULL -> JsonNull.NULL;
      default -> throw whole("The frame is not valid JSON: unexpected " + token + ".");
    };
  }

  private JsonNumber number(String digits) {
    try {
      return new JsonNumber(digits);
    } catch (IllegalArgumentException e) {
      throw whole("The frame is not valid JSON: '" + digits + "' is not a JSON number.");
    }
  }

  /** {@code s}, refused when it holds a lone surrogate (RFC 7493: such a string has no UTF-8 form). */
  private String checked(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw whole("The frame is not valid JSON: a string" + (member == null ? "" : " in '" + member + "'")
            + " holds a lone surrogate (\\u" + Integer.toHexString(c) + ").");
      }
    }
    return s;
  }

  private FrameException beyondLimits(boolean recoverSid) {
    String problem = deepest >= MAX_DEPTH
        ? "nests deeper than " + MAX_DEPTH + " levels counting the frame"
        : "passes the frame reader's limits (numbers of at most 1,000 digits, names of at most 50,000 characters)";
    if ("in".equals(member)) {
      String sid = recoverSid ? sidAround() : null;
      return new FrameException(ErrorCode.X_INPUT_INVALID, "sub.in", sid, null,
          "sub.in " + problem + ".",
          "Send a smaller input: a query input nests at most 32 levels of objects and arrays.");
    }
    String kind = members.get("t") instanceof JsonString t ? t.value() + "." : "";
    String sid = members.get("sid") instanceof JsonString s && ClientFrame.isSid(s.value()) ? s.value() : null;
    String topic = sid == null && members.get("topic") instanceof JsonString s && !s.value().isEmpty()
        ? s.value()
        : null;
    return new FrameException(ErrorCode.X_FRAME_INVALID, member == null ? null : kind + member, sid, topic,
        (member == null ? "The frame " : kind + member + " ") + problem + ".", FIX);
  }

  /** The frame's sid when {@code in} broke the read: as read before {@code in}, or from the text without it. */
  private @Nullable String sidAround() {
    if (members.get("sid") instanceof JsonString s) {
      return ClientFrame.isSid(s.value()) ? s.value() : null;
    }
    int end = endOfContainer(text, memberStart);
    if (memberStart < 0 || end < 0) {
      return null;
    }
    try {
      JsonObject rest = new FrameReader(text.substring(0, memberStart) + "null" + text.substring(end)).frame(false);
      return rest.get("sid") instanceof JsonString s && ClientFrame.isSid(s.value()) ? s.value() : null;
    } catch (FrameException e) {
      return null;
    }
  }

  /** The offset just past the object or array opening at {@code start}, or -1 when it does not close. */
  static int endOfContainer(String text, int start) {
    if (start < 0) {
      return -1;
    }
    int depth = 0;
    boolean inString = false;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
        if (depth == 0) {
          return i + 1;
        }
      }
    }
    return -1;
  }

  private static String kind(JsonToken token) {
    return switch (token) {
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.toString();
    };
  }

  private static FrameException whole(String cause) {
    return new FrameException(ErrorCode.X_FRAME_INVALID, null, null, null, cause, FIX);
  }
}
