package io.runnel.sync.channel;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * A refused join or event: {@code X_TOPIC_FORBIDDEN} (no channel declares the topic, or it does not spell the
 * channel's params), {@code X_FORBIDDEN} (the channel's policy), {@code X_SUBSCRIPTION_LIMIT} (a topic cap),
 * {@code X_INPUT_INVALID} (an undeclared event name, a presence meta on a channel without presence),
 * {@code X_PAYLOAD_TOO_LARGE} (an event payload over its limit) or {@code X_FRAME_RATE_LIMIT} (an actor over its
 * event rate, with {@link #retryAfterSeconds()}).
 */
public final class ChannelException extends RunnelException {

  private static final long serialVersionUID = 1L;

  private final int retryAfterSeconds;

  /**
   * A refusal with no retry hint.
   *
   * @param code the code, one of those above or {@code X_TRANSPORT_UNAVAILABLE} for a bus that is down
   * @param cause what was refused and why
   * @param fix what the caller can do about it
   */
  public ChannelException(ErrorCode code, String cause, String fix) {
    this(code, cause, fix, 0);
  }

  /**
   * A refusal that waiting may lift.
   *
   * @param code the code, as above
   * @param cause what was refused and why
   * @param fix what the caller can do about it
   * @param retryAfterSeconds seconds after which the same call may pass, or 0 when waiting does not help
   */
  public ChannelException(ErrorCode code, String cause, String fix, int retryAfterSeconds) {
    super(code, cause, fix);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** Seconds after which the same call may pass ({@code Retry-After}), or 0 when waiting does not help. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
