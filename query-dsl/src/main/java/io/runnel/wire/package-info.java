/**
 * The wire vocabulary shared by server and browser: a small JSON value model with a strict parser and writer,
 * RFC 8785 canonical JSON, and the explicit JSON codecs that decode and validate inputs (TeaVM has no
 * reflection, so every type that crosses the wire has a codec written out).
 */
package io.runnel.wire;
