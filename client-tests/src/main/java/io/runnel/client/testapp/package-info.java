/**
 * The test app: a small app's client-safe declarations ({@link io.runnel.client.testapp.TestBoard}) and its bundle's
 * entry class ({@link io.runnel.client.testapp.TestApp}), which the build compiles to {@code test-app.js} and caps at
 * 60 KB gzip; and two bundles for tests only: {@link io.runnel.client.testapp.AppProbe}, the entry class of
 * {@code app-probe.js}, which exports {@link io.runnel.client.testapp.BundleApi}'s calls over the test app's refs so
 * that {@code TestAppBundleTest} can compare them with the JVM's answers, and
 * {@link io.runnel.client.testapp.BrowserProbe}, the entry class of {@code browser-probe.js}, which hands the browser
 * bindings to the Chromium tests. Not part of the runtime: neither its jar nor {@code runnel-client.js} holds them.
 */
package io.runnel.client.testapp;
