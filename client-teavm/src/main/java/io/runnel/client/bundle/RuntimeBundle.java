package io.runnel.client.bundle;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.JsNumberText;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSObject;

/**
 * The entry class of {@code runnel-client.js}, the client runtime with no app declarations (for pages that only
 * read): it exports {@code connect} over an empty {@link Refs}. An app's bundle has its own entry class that
 * registers the app's refs and exports {@code connect} over them (the test app's {@code TestApp}, in module
 * {@code client-tests}, is one).
 */
public final class RuntimeBundle {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  private static final Refs REFS = new Refs();

  private RuntimeBundle() {}

  /**
   * The page's client: {@code connect({url, credentials?})} builds it from the browser's ports and opens its socket
   * ({@link JsClient}).
   */
  @JSExport
  public static JsClient connect(JSObject options) {
    return HostPorts.connect(REFS, options);
  }
}
