package io.runnel.bus;

import io.nats.client.Connection;
import io.nats.client.Consumer;
import io.nats.client.ErrorListener;
import java.lang.System.Logger.Level;

/** jnats's asynchronous errors, logged; a slow consumer's dropped messages show up downstream as a seq hole. */
final class NatsErrors implements ErrorListener {

  private static final System.Logger LOG = System.getLogger(NatsTransport.class.getName());

  private final String urls;

  /** @param urls the server URLs for messages, passwords hidden */
  NatsErrors(String urls) {
    this.urls = urls;
  }

  @Override
  public void errorOccurred(Connection conn, String error) {
    LOG.log(Level.WARNING, "NATS at " + urls + " reported: " + error);
  }

  @Override
  public void exceptionOccurred(Connection conn, Exception exp) {
    LOG.log(Level.DEBUG, "NATS connection to " + urls + ": " + exp);
  }

  @Override
  public void slowConsumerDetected(Connection conn, Consumer consumer) {
    LOG.log(Level.WARNING, "A subscriber of NATS at " + urls + " is too slow: messages were dropped (consumers see "
        + "a seq hole and re-read)");
  }
}
