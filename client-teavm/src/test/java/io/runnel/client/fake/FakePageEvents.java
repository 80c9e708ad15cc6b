package io.runnel.client.fake;

import io.runnel.client.port.PageEvents;
import java.util.ArrayList;
import java.util.List;

/** The page's events, fired by the test: the browser's {@code online}, {@code offline} and {@code visibilitychange}. */
public final class FakePageEvents implements PageEvents {

  private final List<Listener> listeners = new ArrayList<>();

  @Override
  public void listen(Listener listener) {
    listeners.add(listener);
  }

  /** The browser says the network is back. */
  public void online() {
    listeners.forEach(Listener::online);
  }

  /** The browser says the network is gone. */
  public void offline() {
    listeners.forEach(Listener::offline);
  }

  /** The tab is shown again. */
  public void visible() {
    listeners.forEach(Listener::visible);
  }
}
