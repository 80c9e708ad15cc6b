package io.runnel.client.browser;

import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

/**
 * The durable store on IndexedDB: one database ({@link JsDurableStore#DATABASE}, version 1) with one object store,
 * {@code kv}, of text values under text keys, shared by every tab of the origin. The object it makes is a store as
 * {@link JsDurableStore} calls it.
 *
 * <p>IndexedDB answers later while {@code put} and {@code remove} answer now, so every call waits for one promise,
 * {@code ready}, which resolves when the database opened: its callbacks run in the order they were added, each
 * makes its transaction then, and IndexedDB runs the transactions on one object store in the order they were made (a
 * read-write one after the earlier ones, a read after the writes made before it). So {@code list} sees every earlier
 * write of this tab, and whatever other tabs committed before it ran.
 *
 * <p>{@code put} answers true: a write that fails later (a transaction that aborts because the quota is full,
 * {@code QuotaExceededError}; a database closed under the page, as clearing the site's data does) reports its key to
 * {@code refused}, and the value is not stored. Where the database fails to open (some private modes; a newer
 * version of it) {@code ready} resolves to nothing and every call, those already waiting first, goes to the fallback
 * store, a write it refuses going to {@code refused}. A read the database fails answers no entries.
 */
final class IndexedDbStore {

  private IndexedDbStore() {}

  /** Opens database {@code name}; {@code fallback} (a store) is used instead if it fails to open. */
  @JSBody(params = {"name", "fallback"}, script = "var store = {refused: function() {}};"
      + " var ready = new Promise(function(resolve) { try { var open = indexedDB.open(name, 1);"
      + " open.onupgradeneeded = function() { open.result.createObjectStore('kv'); };"
      + " open.onsuccess = function() { resolve(open.result); };"
      + " open.onerror = function(ev) { ev.preventDefault(); resolve(null); }; } catch (er) { resolve(null); } });"
      + " store.put = function(key, value) { ready.then(function(db) { try { if (!db) {"
      + " if (!fallback.put(key, value)) { store.refused(key); } return; }"
      + " var tx = db.transaction('kv', 'readwrite'); tx.onabort = function() { store.refused(key); };"
      + " tx.objectStore('kv').put(value, key); } catch (er) { store.refused(key); } }); return true; };"
      + " store.remove = function(key) { ready.then(function(db) { try { if (!db) { fallback.remove(key); } else {"
      + " db.transaction('kv', 'readwrite').objectStore('kv').delete(key); } } catch (er) {} }); };"
      + " store.list = function(prefix, done) { ready.then(function(db) { if (!db) { fallback.list(prefix, done);"
      + " return; } var out = []; try { var req = db.transaction('kv', 'readonly').objectStore('kv')"
      + ".openCursor(IDBKeyRange.lowerBound(prefix)); req.onsuccess = function() { var at = req.result;"
      + " if (at && typeof at.key === 'string' && at.key.indexOf(prefix) === 0) {"
      + " out.push(at.key, String(at.value)); at.continue(); } else { done(out); } };"
      + " req.onerror = function(ev) { ev.preventDefault(); done([]); }; } catch (er) { done([]); } }); };"
      + " return store;")
  static native JSObject create(String name, JSObject fallback);
}
