package io.runnel.replicator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.runnel.dsl.EntityRef;
import io.runnel.protocol.Position;
import io.runnel.wire.InputInvalidException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The bus's JSON envelopes, version 1 ({@code docs/protocol.md}, "Bus envelope"): {@code kind} tells a change
 * ({@link ChangeEnvelope} writes it) from a position heartbeat, and {@link #decode} returns either as a
 * {@link BusMessage}, for an exhaustive switch.
 *
 * <pre>{@code {"v":1,"kind":"position","lsn":"00000016b374d8a000000000","producer":"5f0c2a9e81d4b3a7","seq":43,
 *  "at":1764566400123}}</pre>
 *
 * <p>A position's {@code at} is PostgreSQL's time (epoch ms) through which every change is below its {@code lsn};
 * absent when the replicator does not know it (read as 0).
 *
 * <p>An envelope without {@code kind} is a change: the replicator wrote none before position heartbeats existed.
 */
public final class BusEnvelope {

  /** The envelope's version field. */
  public static final int VERSION = 1;
  /** The {@code kind} of a row change. */
  public static final String KIND_CHANGE = "change";
  /** The {@code kind} of a position heartbeat. */
  public static final String KIND_POSITION = "position";

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

  private BusEnvelope() {}

  /** The envelope of position heartbeat {@code position}. */
  public static byte[] encode(PositionEvent position) {
    Objects.requireNonNull(position, "position");
    ByteArrayOutputStream out = new ByteArrayOutputStream(96);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("v", VERSION);
      g.writeStringField("kind", KIND_POSITION);
      g.writeStringField("lsn", position.point().toString());
      g.writeStringField("producer", position.producer());
      g.writeNumberField("seq", position.seq());
      if (position.at() > 0) {
        g.writeNumberField("at", position.at());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Decodes an envelope of either kind. A change's rows of an entity {@code entities} knows (by name) are typed
   * through its columns; rows of any other table keep their JSON values.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}, path "") for bytes that are not a version 1 envelope of
   *     a known kind with every required field well formed
   */
  public static BusMessage decode(byte[] payload, Function<String, @Nullable EntityRef> entities) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(entities, "entities");
    JsonNode n;
    try {
      n = MAPPER.readTree(payload);
    } catch (IOException e) {
      throw invalid("is not JSON: " + e.getMessage());
    }
    if (n == null || !n.isObject() || n.path("v").asInt(-1) != VERSION) {
      throw invalid("is not a version " + VERSION + " bus envelope");
    }
    JsonNode kind = n.get("kind");
    if (kind == null || kind.isNull()) {
      return ChangeEnvelope.fromTree(n, entities);
    }
    if (!kind.isTextual()) {
      throw invalid("has a kind that is not a string");
    }
    return switch (kind.textValue()) {
      case KIND_CHANGE -> ChangeEnvelope.fromTree(n, entities);
      case KIND_POSITION -> position(n);
      default -> throw invalid("has an unknown kind '" + kind.textValue() + "'");
    };
  }

  private static PositionEvent position(JsonNode n) {
    JsonNode lsn = n.get("lsn");
    JsonNode producer = n.get("producer");
    JsonNode seq = n.get("seq");
    Position point = lsn == null || !lsn.isTextual() ? null : Position.tryParse(lsn.textValue());
    if (point == null || !point.isPoint()) {
      throw invalid("(a position) needs 'lsn', a 24-hex point ending in 00000000");
    }
    if (producer == null || !producer.isTextual()) {
      throw invalid("(a position) needs 'producer', a string");
    }
    if (seq == null || !seq.isIntegralNumber() || !seq.canConvertToLong()) {
      throw invalid("(a position) needs 'seq', an integer");
    }
    JsonNode at = n.get("at");
    if (at != null && (!at.isIntegralNumber() || !at.canConvertToLong())) {
      throw invalid("(a position) has an 'at' that is not an integer (epoch ms)");
    }
    try {
      return new PositionEvent(point.lsn(), producer.textValue(), seq.longValue(),
          at == null ? 0 : at.longValue());
    } catch (IllegalArgumentException e) {
      throw invalid("(a position) is malformed: " + e.getMessage());
    }
  }

  static InputInvalidException invalid(String problem) {
    return new InputInvalidException("", "(a bus envelope) " + problem,
        "Publish envelopes with ChangeEnvelope.encode or BusEnvelope.encode; check that producer and consumer run"
            + " the same version.");
  }
}
