package io.runnel.sync.socket.internal;

import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.FrameDecoder;
import io.runnel.protocol.FrameException;
import io.runnel.protocol.ServerFrame;
import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * The node's binding of the shared frame model ({@link io.runnel.protocol}) to JSON text ({@code docs/protocol.md},
 * "Socket frames"; golden vectors in {@code docs/protocol/vectors/}).
 *
 * <p><b>Encoding</b> is {@link io.runnel.protocol.FrameEncoder}'s, written as compact JSON by Jackson's streaming
 * generator: {@code t} first, then the fields in the contract's order; an absent optional field is left out, except
 * {@code hello.actor}, which is null for an anonymous actor. Rows, inputs, metas and payloads are written as the
 * {@link io.runnel.wire.JsonValue}s they are: member order and number text are kept (an {@code int8} or {@code numeric}
 * arrives as a string already, per "Values").
 *
 * <p><b>Decoding</b> reads the text with the node's bounded reader, then {@link FrameDecoder#client}: it is strict
 * about what a frame kind defines and lenient about the rest: the text must be one JSON
 * object (unique member names, no lone surrogates) whose {@code t} names a client frame kind, with every field
 * present and of its type; an optional field may be absent or null. Members a kind does not define are ignored, so
 * that a newer client can talk to an older node. Values are checked as far as the frame's shape goes ({@code sid}
 * 1–64 characters, a cursor's {@code lsn} 24 lower-case hex digits); whether the node admits the frame (the
 * protocol version, the query's name, the input's content, policies and caps) is decided after decoding, so
 * {@code hello} with {@code v} 2 decodes. The WebSocket layer refuses a frame over 256 KiB before it is read; the
 * codec takes any length.
 *
 * <p>Nesting is bounded while reading ({@value FrameReader#MAX_DEPTH} levels, the frame's object counting as one),
 * so a frame nested 10,000 levels deep costs a refusal, never a stack overflow.
 */
public final class FrameCodec {

  private FrameCodec() {}

  /**
   * The JSON text of a node's frame.
   *
   * @throws IllegalArgumentException when a JSON value inside the frame nests deeper than Jackson writes (1,000
   *     levels; Runnel's own parsers stop at 512)
   */
  public static String encode(ServerFrame frame) {
    return FrameWriter.outbound(Objects.requireNonNull(frame, "frame"));
  }

  /**
   * The JSON text of a client's frame, as a Java client (a load generator, a test) sends it; a {@code sub} cursor's
   * {@code ids} are written in the cursor's order.
   *
   * @throws IllegalArgumentException when a JSON value inside the frame nests deeper than Jackson writes
   */
  public static String encode(ClientFrame frame) {
    return FrameWriter.inbound(Objects.requireNonNull(frame, "frame"));
  }

  /**
   * The client frame {@code text} holds.
   *
   * @throws FrameException {@code X_FRAME_INVALID} for text that is not JSON, not an object, has no or an unknown
   *     {@code t}, or lacks a field or has one of the wrong type ({@link FrameException#field()} names it, as in
   *     {@code sub.sid must be a string of 1–64 characters}); {@code X_INPUT_INVALID} (field {@code sub.in}) for a
   *     {@code sub} input nested past the reader's bound. Either carries the {@code sid} or {@code topic} when it
   *     could read a valid one ({@link FrameException#sid()}), so that the node can refuse the subscription or join
   *     by name
   */
  public static ClientFrame decode(String text) {
    JsonObject members = FrameReader.read(Objects.requireNonNull(text, "text"));
    return FrameDecoder.client(members);
  }
}
