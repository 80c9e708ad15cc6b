package io.runnel.dsl;

/** SQL's three truth values; a WHERE clause keeps a row only when its filter is {@link #TRUE}. */
public enum Truth {
  /** True. */
  TRUE,
  /** False. */
  FALSE,
  /** Unknown (NULL). */
  UNKNOWN;

  /** The truth of {@code b}. */
  public static Truth of(boolean b) {
    return b ? TRUE : FALSE;
  }

  /** SQL's NOT: unknown stays unknown. */
  public Truth not() {
    return switch (this) {
      case TRUE -> FALSE;
      case FALSE -> TRUE;
      case UNKNOWN -> UNKNOWN;
    };
  }

  /** SQL's AND: false wins, then unknown. */
  public Truth and(Truth other) {
    if (this == FALSE || other == FALSE) {
      return FALSE;
    }
    return this == UNKNOWN || other == UNKNOWN ? UNKNOWN : TRUE;
  }
}
