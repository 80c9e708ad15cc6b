package io.runnel.protocol;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import org.jspecify.annotations.Nullable;

/**
 * A frame that could not be read. On the node, a client frame ({@link FrameDecoder#client}):
 * {@link ErrorCode#X_FRAME_INVALID} for text that is not a well-formed frame, or {@link ErrorCode#X_INPUT_INVALID}
 * for a {@code sub} whose {@code in} passes the reader's limits; it carries what the node needs to answer with a
 * {@code refuse}: the {@code sid} or {@code topic} it could still read ({@link ServerFrame.Refuse#of(FrameException)}),
 * and the field at fault. On the client, a node frame ({@link FrameDecoder#server}, {@link #ofNodeFrame}):
 * {@code X_FRAME_INVALID}, reported and never fatal to the client.
 */
public final class FrameException extends RunnelException {

  private static final long serialVersionUID = 1L;

  private final @Nullable String field;
  private final @Nullable String sid;
  private final @Nullable String topic;

  /**
   * A refusal of a frame.
   *
   * @param code {@code X_FRAME_INVALID} or {@code X_INPUT_INVALID}
   * @param field the field at fault ({@code sub.sid}), or null when the frame as a whole is unreadable
   * @param sid the frame's subscription id when it could be read, else null
   * @param topic the frame's topic when it could be read, else null
   * @param cause what is wrong, naming the field
   * @param fix what the client should send instead
   */
  public FrameException(ErrorCode code, @Nullable String field, @Nullable String sid, @Nullable String topic,
      String cause, String fix) {
    super(code, cause, fix);
    this.field = field;
    this.sid = sid;
    this.topic = topic;
  }

  /**
   * A node frame the client cannot read: {@code X_FRAME_INVALID} with {@code cause}, which names the member at fault
   * ({@code patch.cursor.lsn is missing}).
   */
  public static FrameException ofNodeFrame(String cause) {
    return new FrameException(ErrorCode.X_FRAME_INVALID, null, null, null, cause,
        "Check that the node and the client speak the same protocol version (docs/protocol.md, \"Socket frames\").");
  }

  /**
   * The field at fault, spelled {@code <t>.<field>} ({@code sub.sid}, {@code sub.cursor.lsn}) or {@code t}; null
   * when the frame as a whole is at fault (not JSON, not an object).
   */
  public @Nullable String field() {
    return field;
  }

  /**
   * The {@code sid} of a {@code sub} or {@code unsub} when the codec could read a valid one, else null: always for a
   * field refusal once the sid itself was valid and for an {@code in} nested past the bound; for text that is not
   * JSON never; for nesting past the bound elsewhere, only when the sid came before the deep member.
   */
  public @Nullable String sid() {
    return sid;
  }

  /** The {@code topic} of a {@code join} or {@code leave} when the codec could read one (as for {@link #sid()}). */
  public @Nullable String topic() {
    return topic;
  }
}
