/**
 * The test app: a small app's client-safe declarations and its bundle's entry class, which the build compiles to
 * {@code test-app.js} and caps at 60 KB gzip; and {@link io.runnel.client.testapp.BrowserProbe}, the entry class of
 * {@code browser-probe.js}, which hands the browser bindings to the Chromium tests. Not part of the runtime: neither
 * its jar nor {@code runnel-client.js} holds them.
 */
package io.runnel.client.testapp;
