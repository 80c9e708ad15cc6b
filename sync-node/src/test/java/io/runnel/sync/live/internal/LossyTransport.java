package io.runnel.sync.live.internal;

import io.runnel.bus.Subscription;
import io.runnel.bus.Transport;
import io.runnel.bus.TransportMessage;
import io.runnel.bus.TransportUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The bus as a node reads it, able to lose the next change of one table it would deliver: the one loss a test of gap
 * repair needs, around the real transport. Publishes go through untouched unless {@link #down} is set, when they are
 * refused as a bus that is down refuses them; {@link #close} leaves the bus open.
 */
public final class LossyTransport implements Transport {

  private final Transport bus;
  private final String table;
  /** Set to lose the next delivered message whose subject ends in {@code .<table>}; cleared once one is lost. */
  public volatile boolean loseNext;
  /** Every message delivered (not lost), in order. */
  public final List<TransportMessage> seen = new CopyOnWriteArrayList<>();
  /** Set to refuse every publish and flush, as a bus that is down does, so a replicator cannot confirm its slot. */
  public volatile boolean down;

  /** Wraps {@code bus}; {@link #loseNext} loses a message of table {@code table} (its subject's last token). */
  public LossyTransport(Transport bus, String table) {
    this.bus = bus;
    this.table = "." + table;
  }

  @Override
  public void publish(String subject, byte[] payload) {
    refuseWhenDown();
    bus.publish(subject, payload);
  }

  @Override
  public void flush(Duration deadline) {
    refuseWhenDown();
    bus.flush(deadline);
  }

  private void refuseWhenDown() {
    if (down) {
      throw new TransportUnavailableException("The test's bus is down.", "Wait for the test to bring it back.");
    }
  }

  @Override
  public Subscription subscribe(String pattern, Consumer<TransportMessage> handler) {
    return bus.subscribe(pattern, m -> {
      if (loseNext && m.subject().endsWith(table)) {
        loseNext = false;
        return;
      }
      seen.add(m);
      handler.accept(m);
    });
  }

  @Override
  public void onReconnect(Runnable listener) {
    bus.onReconnect(listener);
  }

  @Override
  public void close() {
  }
}
