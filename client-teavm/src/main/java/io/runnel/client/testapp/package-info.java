/**
 * The test app: a small app's client-safe declarations and its bundle's entry class, which the build compiles to
 * {@code test-app.js} and caps at 60 KB gzip. Not part of the runtime: neither its jar nor {@code runnel-client.js}
 * holds it.
 */
package io.runnel.client.testapp;
