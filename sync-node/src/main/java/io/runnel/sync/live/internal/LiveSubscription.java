package io.runnel.sync.live.internal;

/** A live subscription, as {@link LiveQueryRegistry#subscribe} returns it; close it to unsubscribe. */
public interface LiveSubscription extends AutoCloseable {

  /** The window it reads from. */
  WindowId window();

  /** Ends the subscription; no frame follows. Closing twice does nothing. */
  @Override
  void close();
}
