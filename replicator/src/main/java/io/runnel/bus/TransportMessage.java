package io.runnel.bus;

import java.util.Objects;

/**
 * One message as a subscriber receives it.
 *
 * @param subject the subject it was published on
 * @param payload its bytes (on {@code runnel.changes.>}, a JSON envelope {@code io.runnel.replicator.BusEnvelope}
 *     decodes); not copied, do not modify
 */
// A payload is handed from the transport to its one handler without a copy; messages are never compared or hashed.
@SuppressWarnings("ArrayRecordComponent")
public record TransportMessage(String subject, byte[] payload) {

  /** Checks both parts are given. */
  public TransportMessage {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(payload, "payload");
  }
}
