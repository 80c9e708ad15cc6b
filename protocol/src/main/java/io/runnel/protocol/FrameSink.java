package io.runnel.protocol;

import io.runnel.wire.JsonValue;
import org.jspecify.annotations.Nullable;

/**
 * Where {@link FrameEncoder} writes a frame: a stream of JSON tokens in order. The node writes through Jackson's
 * streaming generator (the fan-out's hot path), the browser client into a {@link JsonTreeSink} that its page's JSON
 * writer turns into text; both give the same JSON for the same frame, which the golden vectors in
 * {@code docs/protocol/vectors/} check.
 *
 * <p>A sink is used by one thread at a time. An I/O failure of the sink's target surfaces as an unchecked
 * exception of the sink's choosing.
 */
public interface FrameSink {

  /** Starts an object (a frame, a cursor, a record, an op). */
  void startObject();

  /** Ends the innermost object. */
  void endObject();

  /** Starts an array. */
  void startArray();

  /** Ends the innermost array. */
  void endArray();

  /** Names the next member of the innermost object. */
  void name(String name);

  /** A string value. */
  void string(String value);

  /** An integer value. */
  void number(long value);

  /** A boolean value. */
  void bool(boolean value);

  /** JSON {@code null}. */
  void nullValue();

  /** A JSON value written as it is: member order and number text kept. */
  void value(JsonValue value);

  /** A string member. */
  default void string(String name, String value) {
    name(name);
    string(value);
  }

  /** A string member, JSON {@code null} when {@code value} is null. */
  default void stringOrNull(String name, @Nullable String value) {
    name(name);
    if (value == null) {
      nullValue();
    } else {
      string(value);
    }
  }

  /** An integer member. */
  default void number(String name, long value) {
    name(name);
    number(value);
  }
}
