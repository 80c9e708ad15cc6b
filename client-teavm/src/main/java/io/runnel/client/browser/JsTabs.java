package io.runnel.client.browser;

import io.runnel.client.browser.internal.JsScheduler;
import io.runnel.client.port.Tabs;
import java.util.function.Consumer;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * The origin's other tabs through Web Locks and one {@code BroadcastChannel} named {@value #CHANNEL}. A lock is
 * asked for with {@code navigator.locks.request(name, {signal}, …)} and held by a promise that
 * {@link Tabs.Lease#release()} resolves; released before it is granted, the request is withdrawn through its
 * {@code AbortController}. The browser releases a closed page's locks. A granted lock reaches the client on a
 * later turn, never inside {@link #lead}.
 *
 * <p>Web Locks exist only in a secure context (https, or http on {@code localhost} and {@code 127.0.0.1}). Where
 * {@code navigator.locks} or {@code BroadcastChannel} is missing, {@link #open()} answers {@link Tabs#alone()}:
 * every lock granted at once, no message sent, so each tab drains its own calls (a write two tabs both send carries
 * one idempotency key, which the node answers once).
 */
public final class JsTabs implements Tabs {

  /** The name of the channel every tab of the origin posts on. */
  public static final String CHANNEL = "runnel";

  private final JSObject channel;

  private JsTabs(JSObject channel) {
    this.channel = channel;
  }

  /** The page's tabs: Web Locks and a channel where the page has both, else {@link Tabs#alone()}. */
  public static Tabs open() {
    return supported() ? new JsTabs(channel(CHANNEL)) : Tabs.alone();
  }

  @Override
  public Lease lead(String name, Runnable granted) {
    JSObject request = request(name, granted::run);
    return () -> release(request);
  }

  @Override
  public void post(String text) {
    post(channel, text);
  }

  @Override
  public void listen(Consumer<String> listener) {
    listen(channel, listener::accept);
  }

  /** Hears a text. */
  @JSFunctor
  interface Text extends JSObject {
    /** Called per message. */
    void text(String text);
  }

  @JSBody(script = "try { return typeof navigator !== 'undefined' && !!navigator.locks"
      + " && typeof navigator.locks.request === 'function' && typeof BroadcastChannel === 'function'"
      + " && typeof AbortController === 'function'; } catch (er) { return false; }")
  private static native boolean supported();

  @JSBody(params = "name", script = "return new BroadcastChannel(name);")
  private static native JSObject channel(String name);

  @JSBody(params = {"name", "granted"}, script = "var lease = {done: false, free: null, abort: new AbortController()};"
      + " navigator.locks.request(name, {signal: lease.abort.signal}, function() { if (lease.done) { return; }"
      + " return new Promise(function(resolve) { lease.free = resolve; granted(); }); })"
      + ".catch(function(er) { if (!er || er.name !== 'AbortError') { throw er; } }); return lease;")
  private static native JSObject request(String name, JsScheduler.Callback granted);

  @JSBody(params = "lease", script = "if (!lease.done) { lease.done = true;"
      + " if (lease.free) { lease.free(); } else { lease.abort.abort(); } }")
  private static native void release(JSObject lease);

  @JSBody(params = {"channel", "text"}, script = "channel.postMessage(text);")
  private static native void post(JSObject channel, String text);

  @JSBody(params = {"channel", "listener"}, script = "channel.addEventListener('message', function(ev) {"
      + " if (typeof ev.data === 'string') { listener(ev.data); } });")
  private static native void listen(JSObject channel, Text listener);
}
