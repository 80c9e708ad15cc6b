package io.runnel.client.browser;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

/**
 * The last fallback of {@link JsDurableStore#open()}, where the page has neither IndexedDB nor localStorage: the
 * entries live in a JavaScript {@code Map} for the page's lifetime, so a reload loses them. It never refuses a
 * write. The object it makes is a store as {@link JsDurableStore} calls it ({@code put}, {@code remove},
 * {@code list}).
 */
final class MemoryStore {

  private MemoryStore() {}

  /** A new, empty store in memory. */
  @JSBody(script = "var entries = new Map(); return {"
      + " put: function(key, value) { entries.set(key, value); return true; },"
      + " remove: function(key) { entries.delete(key); },"
      + " list: function(prefix, done) { var out = []; entries.forEach(function(value, key) {"
      + " if (key.indexOf(prefix) === 0) { out.push(key, value); } }); done(out); } };")
  static native JSObject create();
}
