package io.runnel.sync.channel;

import java.util.function.Consumer;

/** The bus of a node that runs alone: publishing tells nobody, listening hears nothing. */
enum LocalChannelBus implements ChannelBus {
  INSTANCE;

  @Override
  public void publish(ChannelMessage message) {}

  @Override
  public Runnable listen(String topic, Consumer<ChannelMessage> handler) {
    return () -> { };
  }

  @Override
  public void close() {}
}
