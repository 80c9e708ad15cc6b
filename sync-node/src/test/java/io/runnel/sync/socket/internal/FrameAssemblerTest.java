package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.protocol.FrameException;
import io.runnel.wire.ErrorCode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Fragments join into one frame, bounded by the frame limit in UTF-8 bytes; a whole message passes untouched. */
class FrameAssemblerTest {

  @Test
  void aWholeMessageIsHandedOnAsItCame() {
    FrameAssembler a = new FrameAssembler(10);
    String text = "{\"t\":\"hello\",\"v\":1}";
    assertSame(text, a.append(text, true), "one frame, no copy (and no bound: the WebSocket layer checked it)");
  }

  @Test
  void fragmentsJoinIntoOneFrameAndTheNextMessageStartsAfresh() {
    FrameAssembler a = new FrameAssembler(100);
    assertAll(
        () -> assertNull(a.append("{\"t\":", false)),
        () -> assertNull(a.append("\"hello\",", false)),
        () -> assertEquals("{\"t\":\"hello\",\"v\":1}", a.append("\"v\":1}", true)),
        () -> assertEquals("next", a.append("next", true), "nothing of the last message is left"));
  }

  @Test
  void theBoundCountsUtf8BytesAndARefusalForgetsWhatWasBuffered() {
    FrameAssembler a = new FrameAssembler(8);
    a.append("éé", false);
    FrameException e = assertThrows(FrameException.class, () -> a.append("🚀a", false),
        "é é is 4 bytes, the pair 4 more, a one: 9 bytes, past 8");
    assertAll(
        () -> assertEquals(ErrorCode.X_FRAME_TOO_LARGE, e.code()),
        () -> assertEquals("🚀".getBytes(StandardCharsets.UTF_8).length, FrameAssembler.utf8Length("🚀")),
        () -> assertEquals(3, FrameAssembler.utf8Length("中")),
        () -> assertEquals("ok", a.append("ok", true), "after a refusal the next message starts empty"));
  }

  @Test
  void resetForgetsAMessageInProgress() {
    FrameAssembler a = new FrameAssembler(100);
    a.append("{\"t\":\"hel", false);
    a.reset();
    assertEquals("{\"t\":\"hello\",\"v\":1}", a.append("{\"t\":\"hello\",\"v\":1}", true));
  }
}
