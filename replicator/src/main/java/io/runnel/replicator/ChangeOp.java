package io.runnel.replicator;

/** What a change did; the envelope spells it in lower case. */
public enum ChangeOp {
  /** A new row. */
  INSERT,
  /** A changed row. */
  UPDATE,
  /** A removed row. */
  DELETE,
  /** Every row of the table removed. */
  TRUNCATE;

  /** The envelope's spelling: {@code insert}, {@code update}, {@code delete}, {@code truncate}. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The op spelled {@code name}.
   *
   * @throws IllegalArgumentException for any other spelling
   */
  public static ChangeOp ofWireName(String name) {
    for (ChangeOp op : values()) {
      if (op.wireName().equals(name)) {
        return op;
      }
    }
    throw new IllegalArgumentException("Unknown change op '" + name + "'");
  }
}
