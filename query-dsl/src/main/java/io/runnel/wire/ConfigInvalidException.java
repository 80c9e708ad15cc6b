package io.runnel.wire;

/**
 * Configuration Runnel refuses at boot ({@link ErrorCode#X_CONFIG_INVALID}): an environment variable or setting
 * that is missing, malformed or inconsistent with another. The cause names the variable, the fix says what to set.
 */
public final class ConfigInvalidException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param cause what is wrong, naming the variable or setting and its value
   * @param fix what to set instead
   */
  public ConfigInvalidException(String cause, String fix) {
    super(ErrorCode.X_CONFIG_INVALID, cause, fix);
  }
}
