package io.runnel.client.browser;

import io.runnel.client.port.PageEvents;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * The page's events: {@code online} and {@code offline} on {@code window}, and {@code visibilitychange} on
 * {@code document} when {@code document.visibilityState} becomes {@code "visible"}. Where there is no
 * {@code window} or {@code document} (node, a worker) a listener hears nothing.
 */
public final class JsPageEvents implements PageEvents {

  private static final int ONLINE = 0;
  private static final int OFFLINE = 1;

  @Override
  public void listen(Listener listener) {
    listen(event -> {
      if (event == ONLINE) {
        listener.online();
      } else if (event == OFFLINE) {
        listener.offline();
      } else {
        listener.visible();
      }
    });
  }

  /** Hears an event: 0 online, 1 offline, 2 visible. */
  @JSFunctor
  interface Event extends JSObject {
    /** Called per event. */
    void event(int event);
  }

  @JSBody(params = "heard", script = "if (typeof window === 'undefined' || typeof document === 'undefined') {"
      + " return; } window.addEventListener('online', function() { heard(0); });"
      + " window.addEventListener('offline', function() { heard(1); });"
      + " document.addEventListener('visibilitychange', function() {"
      + " if (document.visibilityState === 'visible') { heard(2); } });")
  private static native void listen(Event heard);
}
