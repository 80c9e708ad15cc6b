package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * A value that does not fit its column type: PostgreSQL text that will not parse, JSON of the wrong shape, or a
 * Java value of the wrong class ({@link ErrorCode#X_VALUE_INVALID}).
 */
public final class ValueInvalidException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param type the column type's name, for example {@code timestamptz}
   * @param value the offending value as text
   * @param problem what is wrong, for example "is not a valid uuid"
   */
  public ValueInvalidException(String type, String value, String problem) {
    super(ErrorCode.X_VALUE_INVALID, "The " + type + " value '" + abbreviate(value) + "' " + problem + ".",
        "Send a value PostgreSQL accepts for " + type + ", in the form docs/protocol.md gives for it.");
  }

  /** The cause without its final stop, to quote inside another error's sentence. */
  String clause() {
    String c = cause();
    return c.endsWith(".") ? c.substring(0, c.length() - 1) : c;
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
