package io.runnel.client.port;

/**
 * What the page tells about the network and its own visibility: the browser's {@code online} and {@code offline}
 * events on {@code window}, and {@code visibilitychange} to {@code visible} on {@code document}. {@link #none()}
 * where there are none (and on the JVM, where tests call the listener themselves).
 */
public interface PageEvents {

  /** Hears the page's events, on the client's thread. */
  interface Listener {
    /** The browser thinks the network is back: reconnect now instead of waiting out the backoff. */
    void online();

    /** The browser lost the network: the socket is as good as gone. */
    void offline();

    /** The tab is shown again after being hidden: timers may have been throttled meanwhile, so check at once. */
    void visible();
  }

  /** Calls {@code listener} at each event from now on. */
  void listen(Listener listener);

  /** A page with no events. */
  static PageEvents none() {
    return listener -> { };
  }
}
