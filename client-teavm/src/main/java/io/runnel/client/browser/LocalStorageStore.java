package io.runnel.client.browser;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

/**
 * The fallback of {@link JsDurableStore#open()} where IndexedDB is missing or fails to open: the browser's
 * {@code localStorage}, which survives a reload and is shared by the origin's tabs, with a cap. The entries under
 * keys that start with {@link #COUNTED} (every key the client writes) may hold {@link #CAP_CHARS} characters, keys
 * and values counted (the page's other keys are not): a {@code put} whose entry would take them past it (its own key
 * and value counted, whatever was under its key not) answers false and keeps what was there (the outbox then reports
 * {@code StoreRefusedException}, error code {@code X_INTERNAL}), as does a write the browser refuses (its own quota,
 * a few megabytes per origin, which the app's keys share). {@code list} answers at once. The object it
 * makes is a store as {@link JsDurableStore} calls it.
 */
final class LocalStorageStore {

  /**
   * The most characters (UTF-16 units, keys and values) the client keeps in {@code localStorage}: 1,000,000, about
   * 2 MB, well under the few megabytes browsers give an origin, which leaves the rest to the app. An outbox entry is
   * its mutator's input plus about 150 characters, so this holds some thousands of ordinary writes.
   */
  static final int CAP_CHARS = 1_000_000;

  /** The prefix of the keys the cap counts. */
  static final String COUNTED = "runnel.";

  private LocalStorageStore() {}

  /** Whether the page has a {@code localStorage} it may use (some private modes throw on access). */
  @JSBody(script = "try { return typeof localStorage !== 'undefined' && localStorage !== null"
      + " && typeof localStorage.getItem === 'function'; } catch (er) { return false; }")
  static native boolean available();

  /** The store over {@code localStorage}, counting the keys that start with {@code counted} against {@code cap}. */
  @JSBody(params = {"counted", "cap"}, script = "return {"
      + " put: function(key, value) { try { var used = key.length + value.length;"
      + " for (var ix = 0; ix < localStorage.length; ix++) { var name = localStorage.key(ix);"
      + " if (name !== null && name !== key && name.indexOf(counted) === 0) {"
      + " used += name.length + localStorage.getItem(name).length; } }"
      + " if (used > cap) { return false; } localStorage.setItem(key, value); return true; }"
      + " catch (er) { return false; } },"
      + " remove: function(key) { try { localStorage.removeItem(key); } catch (er) {} },"
      + " list: function(prefix, done) { var out = []; try { for (var ix = 0; ix < localStorage.length; ix++) {"
      + " var name = localStorage.key(ix), value = name === null ? null : localStorage.getItem(name);"
      + " if (value !== null && name.indexOf(prefix) === 0) { out.push(name, value); } } } catch (er) {}"
      + " done(out); } };")
  static native JSObject create(String counted, int cap);
}
