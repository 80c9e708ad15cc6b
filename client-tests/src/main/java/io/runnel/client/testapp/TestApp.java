package io.runnel.client.testapp;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.JsNumberText;
import io.runnel.client.bundle.HostPorts;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSObject;

/**
 * The entry class of {@code test-app.js}: an app's bundle, which registers the app's refs ({@link TestBoard}) and
 * exports the runtime's API ({@code connect}) over them. The build fails when its bundle is over 60 KB gzip
 * ({@code BundleSizeTest}); it is left out of the module's jar.
 */
public final class TestApp {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  /** The test app's declarations. */
  static final Refs REFS = new Refs().entity(TestBoard.POSTS).query(TestBoard.LIVE_FEED)
      .mutator(TestBoard.LIKE_POST);

  private TestApp() {}

  /**
   * The page's client: {@code connect({url, credentials?})} builds it from the browser's ports and opens its socket
   * ({@link JsClient}).
   */
  @JSExport
  public static JsClient connect(JSObject options) {
    return HostPorts.connect(REFS, options);
  }
}
