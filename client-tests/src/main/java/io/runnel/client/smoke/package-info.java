/**
 * A smoke entry for the browser build: it exercises the DSL's client-safe classes (entity refs, column types,
 * selects, the matcher, canonical JSON, topics, mutator refs and their twins) so that TeaVM compiles them on every
 * build, and a test runs the compiled module under node and compares its output with the same code on the JVM.
 */
package io.runnel.client.smoke;
