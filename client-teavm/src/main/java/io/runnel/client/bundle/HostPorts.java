package io.runnel.client.bundle;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.internal.JsJsonPort;
import io.runnel.client.port.JsonPort;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSObject;

/**
 * The ports of the host an entry class runs on. JSON text is the browser's {@code JSON.parse} in a bundle and the
 * DSL's strict parser on the JVM ({@link Numbers#inBrowser()} is decided at compile time, so a bundle holds no Java
 * JSON parser). The page's client ({@link #connect}) is built from the browser's other ports
 * ({@code io.runnel.client.browser}); on the JVM, tests build {@link PageClient} over fakes instead.
 */
public final class HostPorts {

  private HostPorts() {}

  /** {@link JsJsonPort} in a bundle, {@link WireJsonPort} on the JVM. */
  public static JsonPort json() {
    return Numbers.inBrowser() ? new JsJsonPort() : new WireJsonPort();
  }

  /** The page's client over {@code refs}, from the browser's ports and the page's options; call it only in a bundle. */
  public static JsClient connect(Refs refs, JSObject options) {
    return JsClient.connect(refs, json(), options);
  }
}
