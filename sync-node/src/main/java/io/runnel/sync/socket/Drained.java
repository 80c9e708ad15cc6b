package io.runnel.sync.socket;

/**
 * The outcome of a node's drain ({@code SyncNode.drain}): the sockets told to reconnect, and those closed at the end.
 *
 * @param told sockets sent a {@code reconnect} frame with a delay of their own
 * @param closed sockets still open at the end of the spread window plus its grace, which the node took out of
 *     their topics and closed with 1001 (going away); 0 when every client obeyed its frame
 */
public record Drained(int told, int closed) {

  /**
   * Validates the counts.
   *
   * @throws IllegalArgumentException for a negative count
   */
  public Drained {
    if (told < 0 || closed < 0) {
      throw new IllegalArgumentException("A drain's counts are at least 0, not told " + told + ", closed " + closed);
    }
  }
}
