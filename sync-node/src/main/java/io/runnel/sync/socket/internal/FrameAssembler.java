package io.runnel.sync.socket.internal;

import io.runnel.protocol.FrameException;
import io.runnel.wire.ErrorCode;
import org.jspecify.annotations.Nullable;

/**
 * Joins the text fragments of one client message into the frame's text, bounded by the inbound frame limit
 * ({@code docs/protocol.md}: at most 256 KiB, reassembled across fragments).
 *
 * <p>The WebSocket layer bounds each fragment; this bounds their sum, so a client that sends continuation after
 * continuation and never a final one costs a refusal, not the node's heap. Sizes are the UTF-8 length of the text
 * the WebSocket layer decoded: exact for valid text (invalid bytes become U+FFFD and may count three times, which
 * only refuses sooner text that would be refused anyway). A message that arrives whole is handed on without a copy,
 * and the buffer a fragmented one needed is let go once it is joined, so an idle socket holds no buffer. One
 * assembler belongs to one socket and is used from its reading thread only.
 */
public final class FrameAssembler {

  private final int maxBytes;
  private @Nullable StringBuilder parts;
  private long bytes;

  /**
   * @param maxBytes the largest joined frame, in UTF-8 bytes (at least 1)
   * @throws IllegalArgumentException when {@code maxBytes} is below 1
   */
  public FrameAssembler(int maxBytes) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be at least 1, not " + maxBytes);
    }
    this.maxBytes = maxBytes;
  }

  /**
   * Takes the next fragment of the current message.
   *
   * @param fragment the fragment's text, as the WebSocket layer decoded it
   * @param last whether it ends the message
   * @return the whole frame's text when {@code last}, else null (more fragments are to come)
   * @throws FrameException {@code X_FRAME_TOO_LARGE} when the fragments so far pass the bound; what was buffered is
   *     let go, and the fragments still to come of that message are then read as a new one (and refused)
   */
  public @Nullable String append(String fragment, boolean last) {
    if (parts == null && last) {
      return fragment;
    }
    bytes += utf8Length(fragment);
    if (bytes > maxBytes) {
      reset();
      throw new FrameException(ErrorCode.X_FRAME_TOO_LARGE, null, null, null,
          "The frame's fragments pass " + maxBytes + " bytes.",
          "Send frames of at most " + maxBytes + " bytes (UTF-8), fragments joined.");
    }
    if (parts == null) {
      parts = new StringBuilder(fragment.length() * 2);
    }
    parts.append(fragment);
    if (!last) {
      return null;
    }
    String whole = parts.toString();
    reset();
    return whole;
  }

  /** Forgets a message in progress (a binary frame came between its fragments, or the socket closes). */
  public void reset() {
    parts = null;
    bytes = 0;
  }

  /**
   * The UTF-8 length of {@code s}, in bytes, counted without encoding it: 1, 2 or 3 bytes a character, 4 a surrogate
   * pair (each half counting 2).
   */
  public static long utf8Length(String s) {
    long n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      n += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    }
    return n;
  }
}
