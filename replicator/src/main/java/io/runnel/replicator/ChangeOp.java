package io.runnel.replicator;

import java.util.Locale;

/**
 * The envelope's {@code op} field: which {@link ChangeEvent} variant an envelope holds, spelled in lower case. Only
 * the wire and the raw {@link WalChange} use it; consumers switch over the variants themselves.
 */
enum ChangeOp {
  /** A {@link ChangeEvent.Insert}. */
  INSERT,
  /** A {@link ChangeEvent.Update}. */
  UPDATE,
  /** A {@link ChangeEvent.Delete}. */
  DELETE,
  /** A {@link ChangeEvent.Truncate}. */
  TRUNCATE;

  /** The envelope's spelling: {@code insert}, {@code update}, {@code delete}, {@code truncate}. */
  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The op spelled {@code name}.
   *
   * @throws IllegalArgumentException for any other spelling
   */
  static ChangeOp ofWireName(String name) {
    for (ChangeOp op : values()) {
      if (op.wireName().equals(name)) {
        return op;
      }
    }
    throw new IllegalArgumentException("Unknown change op '" + name + "'");
  }

  /** The op of {@code change}'s variant. */
  static ChangeOp of(ChangeEvent change) {
    return switch (change) {
      case ChangeEvent.Insert i -> INSERT;
      case ChangeEvent.Update u -> UPDATE;
      case ChangeEvent.Delete d -> DELETE;
      case ChangeEvent.Truncate t -> TRUNCATE;
    };
  }
}
