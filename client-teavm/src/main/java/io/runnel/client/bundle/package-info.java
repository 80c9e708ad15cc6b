/**
 * What a page's bundle is made of: {@link io.runnel.client.bundle.PageClient}, the connected client as a page calls
 * it (JSON text in and out, tested on the JVM), the host's ports ({@link io.runnel.client.bundle.HostPorts}) and the
 * runtime bundle's entry class ({@link io.runnel.client.bundle.RuntimeBundle}), whose {@code @JSExport connect} is
 * all a bundle exports (TeaVM exports only the main class's static methods). {@code docs/client.md} lists the
 * bundles.
 */
package io.runnel.client.bundle;
