package io.runnel.client.browser;

import io.runnel.wire.NumberText;
import org.teavm.jso.JSBody;

/**
 * Number text through the browser's own {@code Number(text)} and {@code String(value)}, so a bundle holds none of
 * the class library's double parsing and printing (tens of KB). Every bundle's entry class installs it with
 * {@code Numbers.useInBrowser}; on the JVM it is never called.
 */
public final class JsNumberText implements NumberText {

  @Override
  public double parse(String text) {
    return number(text);
  }

  @Override
  public String ecma(double value) {
    return string(value);
  }

  @JSBody(params = "s", script = "return Number(s);")
  private static native double number(String s);

  @JSBody(params = "d", script = "return String(d);")
  private static native String string(double d);
}
