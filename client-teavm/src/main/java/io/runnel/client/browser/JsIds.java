package io.runnel.client.browser;

import io.runnel.client.port.Ids;
import org.teavm.jso.JSBody;

/**
 * Random UUIDs from the browser's {@code crypto}: {@code crypto.randomUUID()} where the page is a secure context,
 * else a version 4 UUID built from {@code crypto.getRandomValues}.
 */
public final class JsIds implements Ids {

  @Override
  public String uuid() {
    return randomUuid();
  }

  @JSBody(script = "if (typeof crypto.randomUUID === 'function') { return crypto.randomUUID(); }"
      + " var b = crypto.getRandomValues(new Uint8Array(16)); b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;"
      + " var h = ''; for (var i = 0; i < 16; i++) { h += (b[i] + 256).toString(16).substring(1);"
      + " if (i === 3 || i === 5 || i === 7 || i === 9) { h += '-'; } } return h;")
  private static native String randomUuid();
}
