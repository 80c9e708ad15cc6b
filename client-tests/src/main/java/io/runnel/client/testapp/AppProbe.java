package io.runnel.client.testapp;

import io.runnel.client.browser.JsNumberText;
import io.runnel.client.bundle.HostPorts;
import io.runnel.wire.Numbers;
import org.jspecify.annotations.Nullable;
import org.teavm.jso.JSExport;

/**
 * The entry class of {@code app-probe.js}, a bundle for {@code TestAppBundleTest} only: {@link BundleApi}'s calls
 * over the test app's refs ({@link TestApp#REFS}), so the same DSL classes the app bundle holds run under node and
 * answer as they do on the JVM. It is in neither the jar nor the shipped bundles.
 */
public final class AppProbe {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  private static final BundleApi API = new BundleApi(TestApp.REFS, HostPorts.json());

  private AppProbe() {}

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
}
