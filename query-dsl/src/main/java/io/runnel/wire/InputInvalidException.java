package io.runnel.wire;

import java.util.Objects;

/**
 * An input (a query's or mutator's, or any JSON decoded through a {@link JsonCodec}) failed validation:
 * {@link ErrorCode#X_INPUT_INVALID}, naming the field path ({@code orgId}, {@code items[2].name}; the empty path
 * is the input itself).
 */
public final class InputInvalidException extends RunnelException {

  private static final long serialVersionUID = 1L;

  private final String path;

  /**
   * @param path the failing field's path, as {@link JsonPath} spells it
   * @param problem what is wrong with it, for example "is missing" or "must be a string"
   * @param fix what the caller should send instead
   */
  public InputInvalidException(String path, String problem, String fix) {
    super(ErrorCode.X_INPUT_INVALID, JsonPath.describe(path) + " " + problem + ".", fix);
    this.path = Objects.requireNonNull(path, "path");
  }

  /** The failing field's path; empty for the input as a whole. */
  public String path() {
    return path;
  }
}
