package io.runnel.client.testapp;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.JsNumberText;
import io.runnel.client.bundle.BundleApi;
import io.runnel.client.bundle.HostPorts;
import io.runnel.wire.Nullable;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSObject;

/**
 * The entry class of {@code test-app.js}: an app's bundle, which registers the app's refs ({@link TestBoard}) and
 * re-exports the runtime's API over them. The build fails when its bundle is over 60 KB gzip
 * ({@code BundleSizeTest}); it is left out of the module's jar.
 */
public final class TestApp {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  /** The test app's declarations. */
  static final Refs REFS = new Refs().entity(TestBoard.POSTS).query(TestBoard.LIVE_FEED)
      .mutator(TestBoard.LIKE_POST);

  private static final BundleApi API = new BundleApi(REFS, HostPorts.json());

  private TestApp() {}

  /** {@link BundleApi#describe()}. */
  @JSExport
  public static String describe() {
    return API.describe();
  }

  /** {@link BundleApi#queryInput(String, String)}. */
  @JSExport
  public static String queryInput(String query, String inputJson) {
    return API.queryInput(query, inputJson);
  }

  /** {@link BundleApi#mutatorInput(String, String)}. */
  @JSExport
  public static String mutatorInput(String mutator, String inputJson) {
    return API.mutatorInput(mutator, inputJson);
  }

  /** {@link BundleApi#place(String, String, String, String)}. */
  @JSExport
  public static String place(String query, String inputJson, @Nullable String actorId, String recordsJson) {
    return API.place(query, inputJson, actorId, recordsJson);
  }

  /** {@link BundleApi#runTwin(String, String, String)}. */
  @JSExport
  public static String runTwin(String mutator, String inputJson, String recordsJson) {
    return API.runTwin(mutator, inputJson, recordsJson);
  }

  /**
   * The page's client: {@code connect({url, credentials?})} builds it from the browser's ports and opens its socket
   * ({@link JsClient}).
   */
  @JSExport
  public static JsClient connect(JSObject options) {
    return HostPorts.connect(REFS, options);
  }
}
