package io.runnel.client.bundle;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.JsNumberText;
import io.runnel.wire.Nullable;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSObject;

/**
 * The entry class of {@code runnel-client.js}, the client runtime with no app declarations (for pages that only
 * read): its exports are {@link BundleApi}'s over an empty {@link Refs}. An app's bundle has its own entry class
 * that registers the app's refs and re-exports the same functions (see {@code io.runnel.client.testapp.TestApp}).
 */
public final class RuntimeBundle {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  private static final Refs REFS = new Refs();

  private static final BundleApi API = new BundleApi(REFS, HostPorts.json());

  private RuntimeBundle() {}

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
