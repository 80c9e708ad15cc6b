package io.runnel.wire;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The base of every coded Runnel error: a {@link ErrorCode}, what happened ({@link #cause()}) and what to do about
 * it ({@link #fix()}), the three fields of every error body and {@code refuse} frame.
 *
 * <p>Subclasses name the concern ({@link InputInvalidException}, {@link ConfigInvalidException},
 * {@code DeclarationException}, {@code ValueInvalidException}, …), so the constructors are protected: a new kind of
 * error gets its own small subclass. Callers decide on {@link #code()}, never on text.
 */
public class RunnelException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final String cause;
  private final String fix;

  /**
   * An error with its code, cause and fix.
   *
   * @param code the code clients see
   * @param cause what happened, for a person: names the field, value or declaration at fault
   * @param fix what to do about it
   */
  protected RunnelException(ErrorCode code, String cause, String fix) {
    this(code, cause, fix, null);
  }

  /**
   * An error with its code, cause and fix, keeping the underlying exception as the Java cause.
   *
   * @param code the code clients see
   * @param cause what happened, for a person
   * @param fix what to do about it
   * @param underlying the exception that led to this one, or null
   */
  protected RunnelException(ErrorCode code, String cause, String fix, @Nullable Throwable underlying) {
    super(code.name() + ": " + cause + " Fix: " + fix, underlying);
    this.code = Objects.requireNonNull(code, "code");
    this.cause = Objects.requireNonNull(cause, "cause");
    this.fix = Objects.requireNonNull(fix, "fix");
  }

  /** The error code. */
  public ErrorCode code() {
    return code;
  }

  /** What happened, as sent in the body's {@code cause} field. */
  public String cause() {
    return cause;
  }

  /** What to do about it, as sent in the body's {@code fix} field. */
  public String fix() {
    return fix;
  }

  /** The error as the protocol's body: {@code { "code", "cause", "fix" }}. */
  public JsonObject toJson() {
    return JsonObject.builder()
        .put("code", code.name())
        .put("cause", cause)
        .put("fix", fix)
        .build();
  }
}
