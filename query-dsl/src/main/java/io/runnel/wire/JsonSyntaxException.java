package io.runnel.wire;

/**
 * Text that is not JSON, or JSON that Runnel refuses (a duplicate member name, a lone surrogate, nesting deeper
 * than the parser's guard): {@link ErrorCode#X_INPUT_INVALID} with the character offset. A socket reading frames
 * answers the same failure as {@link ErrorCode#X_FRAME_INVALID}.
 */
public final class JsonSyntaxException extends RunnelException {

  private static final long serialVersionUID = 1L;

  private final int offset;

  JsonSyntaxException(String problem, int offset) {
    super(ErrorCode.X_INPUT_INVALID, "The body is not valid JSON: " + problem + " at offset " + offset + ".",
        "Send one UTF-8 JSON value (RFC 8259) with unique member names.");
    this.offset = offset;
  }

  /**
   * Text another parser refused (the browser's {@code JSON.parse}, which names no offset): {@code problem} is its
   * message; {@link #offset()} is -1.
   */
  public JsonSyntaxException(String problem) {
    super(ErrorCode.X_INPUT_INVALID, "The body is not valid JSON: " + problem + ".",
        "Send one UTF-8 JSON value (RFC 8259) with unique member names.");
    this.offset = -1;
  }

  /** The offset, in UTF-16 characters, where parsing stopped, or -1 when the parser did not say. */
  public int offset() {
    return offset;
  }
}
