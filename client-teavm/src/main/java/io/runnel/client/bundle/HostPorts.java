package io.runnel.client.bundle;

import io.runnel.client.browser.JsJsonPort;
import io.runnel.client.port.JsonPort;
import io.runnel.wire.Numbers;

/**
 * The ports of the host an entry class runs on. JSON text is the browser's {@code JSON.parse} in a bundle and the
 * DSL's strict parser on the JVM ({@link Numbers#inBrowser()} is decided at compile time, so a bundle holds no Java
 * JSON parser). The browser's other ports ({@code io.runnel.client.browser}) join here when the client facade is wired in.
 */
public final class HostPorts {

  private HostPorts() {}

  /** {@link JsJsonPort} in a bundle, {@link WireJsonPort} on the JVM. */
  public static JsonPort json() {
    return Numbers.inBrowser() ? new JsJsonPort() : new WireJsonPort();
  }
}
