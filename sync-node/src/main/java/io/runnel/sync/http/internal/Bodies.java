package io.runnel.sync.http.internal;

import io.helidon.webserver.http.ServerRequest;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/** Reads what a request carries: the body (bounded, UTF-8, JSON), the {@code input} member, the idempotency key. */
final class Bodies {

  /** The largest request body read, 1 MiB. */
  static final int MAX_BYTES = 1 << 20;

  /**
   * The largest body drained before a 413 is answered, 16 MiB; the HTTP stack refuses a larger one at once (and
   * the client may then see its connection reset before it reads the 413).
   */
  static final int DRAIN_BYTES = 16 << 20;

  private Bodies() {}

  /** The {@code input} member of a mutate body. */
  static JsonValue inputOf(String body) {
    JsonValue json = parse(body, "The body");
    if (!(json instanceof JsonObject o)) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, "The body is not a JSON object.",
          "Send { \"input\": { … } }.");
    }
    JsonValue input = o.get("input");
    if (input == null) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, "The body has no member 'input'.",
          "Send { \"input\": { … } }, with {} for a mutator that takes no input.");
    }
    return input;
  }

  /** An event body: the event's name and its payload ({@code null} when the body has none). */
  record Event(String event, JsonValue payload) {}

  /** The {@code event} and {@code payload} members of an event body. */
  static Event eventOf(String body) {
    JsonValue json = parse(body, "The body");
    String fix = "Send { \"event\": \"<a declared event>\", \"payload\": <any JSON> }.";
    if (!(json instanceof JsonObject o)) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, "The body is not a JSON object.", fix);
    }
    if (!(o.get("event") instanceof JsonString name) || name.value().isEmpty()) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, "The body's member 'event' is missing or not a "
          + "non-empty string.", fix);
    }
    JsonValue payload = o.get("payload");
    return new Event(name.value(), payload == null ? JsonNull.NULL : payload);
  }

  static JsonValue parse(String text, String what) {
    try {
      return Json.parse(text);
    } catch (RunnelException e) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, what + " is not valid JSON: " + e.cause(), e.fix());
    }
  }

  /** 1–128 visible ASCII characters ({@code docs/protocol.md}, "HTTP surface"). */
  static boolean validKey(@Nullable String key) {
    if (key == null || key.isEmpty() || key.length() > 128) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char ch = key.charAt(i);
      if (ch < 0x21 || ch > 0x7e) {
        return false;
      }
    }
    return true;
  }

  /**
   * The request body as UTF-8 text, at most {@link #MAX_BYTES}.
   *
   * @throws HttpRefusal 413 {@code X_PAYLOAD_TOO_LARGE} past the limit, 422 {@code X_INPUT_INVALID} for bytes that
   *     are not UTF-8
   */
  static String read(ServerRequest req) {
    HttpRefusal tooLarge = new HttpRefusal(413, ErrorCode.X_PAYLOAD_TOO_LARGE,
        "The body is larger than " + MAX_BYTES + " bytes.", "Send a smaller input; keep blobs out of mutator calls.");
    if (req.headers().contentLength().orElse(0) > DRAIN_BYTES) {
      throw tooLarge;
    }
    byte[] bytes;
    try (InputStream in = req.content().inputStream()) {
      bytes = in.readNBytes(MAX_BYTES + 1);
      if (bytes.length > MAX_BYTES) {
        // Read to the end before answering, so the client, still sending, receives the 413 rather than a reset
        // connection (bounded: Helidon refuses a body past DRAIN_BYTES itself).
        in.transferTo(OutputStream.nullOutputStream());
        throw tooLarge;
      }
    } catch (IOException e) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, "The body could not be read: " + e.getMessage(),
          "Send the whole body with a correct Content-Length.");
    } catch (RuntimeException e) {
      if (e instanceof HttpRefusal r) {
        throw r;
      }
      // Helidon refuses a body past its own limit while it is read.
      throw tooLarge;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, "The body is not UTF-8.", "Send the JSON body as UTF-8.");
    }
  }
}
