package io.runnel.sync;

import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.ChannelMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A real {@link ChannelBus} that also tells the test what the node's hub was handed, after the hub handled it, so a
 * test ticks the node's manual ticker once a message from another node has landed instead of sleeping.
 */
final class HeardBus implements ChannelBus {

  private final ChannelBus bus;
  private final LinkedBlockingQueue<ChannelMessage> heard = new LinkedBlockingQueue<>();

  HeardBus(ChannelBus bus) {
    this.bus = bus;
  }

  @Override
  public void publish(ChannelMessage message) {
    bus.publish(message);
  }

  @Override
  public Runnable listen(String topic, Consumer<ChannelMessage> handler) {
    return bus.listen(topic, m -> {
      handler.accept(m);
      heard.add(m);
    });
  }

  @Override
  public void onReconnect(Runnable listener) {
    bus.onReconnect(listener);
  }

  @Override
  public void flush(Duration deadline) {
    bus.flush(deadline);
  }

  @Override
  public void close() {
    bus.close();
  }

  /** Waits (at most 30 s) until the hub was handed a message matching {@code wanted}; returns it. */
  ChannelMessage await(Predicate<ChannelMessage> wanted) throws InterruptedException {
    List<ChannelMessage> other = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      ChannelMessage m = heard.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (m == null) {
        throw new AssertionError("The hub was not handed the awaited message within 30 s; it was handed " + other);
      }
      if (wanted.test(m)) {
        return m;
      }
      other.add(m);
    }
  }

  /** Waits until the hub was handed a {@code Seated} of {@code topic} with the presence key {@code key}. */
  ChannelMessage.Seated seated(String topic, String key) throws InterruptedException {
    return (ChannelMessage.Seated) await(m -> m instanceof ChannelMessage.Seated s && s.topic().equals(topic)
        && s.key().equals(key));
  }

  /** Waits until the hub was handed an {@code Unseated} of {@code topic}. */
  ChannelMessage.Unseated unseated(String topic) throws InterruptedException {
    return (ChannelMessage.Unseated) await(m -> m instanceof ChannelMessage.Unseated u && u.topic().equals(topic));
  }
}
