/**
 * The bundles' shared API and the runtime bundle's entry class. {@link io.runnel.client.bundle.BundleApi} is plain
 * Java over JSON text, tested on the JVM; {@link io.runnel.client.bundle.RuntimeBundle} only delegates to it with
 * {@code @JSExport} static methods, as TeaVM exports only the main class's. {@code docs/client.md} lists the bundles.
 */
package io.runnel.client.bundle;
