package io.runnel.client.frame;

import java.util.List;
import java.util.Objects;

/**
 * The answer of one read over HTTP ({@code GET /v1/query/{query}}, {@code PROTOCOL.md}): the records and the LSN they
 * were read at, as {@link FrameCodec#readAnswer} decodes the 200 body.
 *
 * @param records the records, in query order
 * @param lsn the position the read saw, 24 lower-case hex digits
 */
public record ReadAnswer(List<WireRecord> records, String lsn) {

  /** Checks and copies the parts. @throws IllegalArgumentException for an LSN that is not 24 lower-case hex digits */
  public ReadAnswer {
    records = List.copyOf(records);
    Lsns.require(lsn, "read.lsn");
  }
}
