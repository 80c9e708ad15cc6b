package io.runnel.client.browser.internal;

import io.runnel.client.port.Scheduler;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/** Timers and the clock of the browser (or node): {@code setTimeout}, {@code clearTimeout} and {@code Date.now()}. */
public final class JsScheduler implements Scheduler {

  /** The longest delay {@code setTimeout} honours (2^31 - 1 ms, about 24.8 days); longer delays wait this long. */
  static final long MAX_DELAY_MILLIS = Integer.MAX_VALUE;

  @Override
  public Cancellable schedule(long delayMillis, Runnable task) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("A delay cannot be negative: " + delayMillis);
    }
    JSObject timer = setTimeout(task::run, (int) Math.min(delayMillis, MAX_DELAY_MILLIS));
    return () -> clearTimeout(timer);
  }

  @Override
  public long nowMillis() {
    return (long) now();
  }

  /** A JavaScript callback with no arguments. */
  @JSFunctor
  public interface Callback extends JSObject {
    /** Runs it. */
    void run();
  }

  @JSBody(params = {"f", "ms"}, script = "return setTimeout(function() { f(); }, ms);")
  private static native JSObject setTimeout(Callback f, int ms);

  @JSBody(params = "t", script = "clearTimeout(t);")
  private static native void clearTimeout(JSObject t);

  @JSBody(script = "return Date.now();")
  private static native double now();
}
