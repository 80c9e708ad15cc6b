package io.runnel.dsl;

import java.util.Objects;

/**
 * How a pending optimistic write meets newer server truth for the same record, before the write settles.
 *
 * <ul>
 *   <li>{@link #SERVER_WINS} (the default): the twin is re-run on top of each new server version (a rebase), so
 *       two pending writes land in order on top of someone else's change, and the server's answer is final.
 *   <li>{@link #LAST_WRITE_WINS}: the columns the twin wrote keep the twin's values over newer server versions
 *       until the write settles.
 *   <li>{@link Merge}: the app's function decides column by column.
 * </ul>
 */
public sealed interface Conflict permits Conflict.ServerWins, Conflict.LastWriteWins, Conflict.Merge {

  /** Re-run the twin over newer server truth. */
  Conflict SERVER_WINS = new ServerWins();
  /** Keep the twin's written columns until the write settles. */
  Conflict LAST_WRITE_WINS = new LastWriteWins();

  /** A custom merge of the newer server row and the optimistic row. */
  static Conflict merge(MergeFunction merge) {
    return new Merge(merge);
  }

  /** The merge function of {@link Merge}. */
  @FunctionalInterface
  interface MergeFunction {
    /**
     * The row the page shows while the write is pending.
     *
     * @param server the newer server version of the record
     * @param optimistic the record as the twin left it on the previous version
     */
    Row merge(Row server, Row optimistic);
  }

  /** See {@link #SERVER_WINS}. */
  record ServerWins() implements Conflict {}

  /** See {@link #LAST_WRITE_WINS}. */
  record LastWriteWins() implements Conflict {}

  /**
   * See {@link #merge}.
   *
   * @param function the app's merge
   */
  record Merge(MergeFunction function) implements Conflict {
    /** Checks the function is given. */
    public Merge {
      Objects.requireNonNull(function, "function");
    }
  }
}
