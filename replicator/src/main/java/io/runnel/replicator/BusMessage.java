package io.runnel.replicator;

/**
 * One message of the replicator's ordered stream on {@code runnel.changes.>}: a row change or a position heartbeat
 * ({@link BusEnvelope} decodes either). Both carry the publishing producer and its message count, so a consumer's
 * gap check counts every message of a producer, whichever kind it is.
 */
public sealed interface BusMessage permits ChangeEvent, PositionEvent {

  /** The publishing process's id (a new one per process start). */
  String producer();

  /** This producer's message count, 1, 2, 3…, over changes and positions alike, continuing across redials. */
  long seq();
}
