package io.runnel.client.browser.internal;

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
      + " var bytes = crypto.getRandomValues(new Uint8Array(16)); bytes[6] = (bytes[6] & 15) | 64;"
      + " bytes[8] = (bytes[8] & 63) | 128; var text = '';"
      + " for (var index = 0; index < 16; index++) { text += (bytes[index] + 256).toString(16).substring(1);"
      + " if (index === 3 || index === 5 || index === 7 || index === 9) { text += '-'; } } return text;")
  private static native String randomUuid();
}
