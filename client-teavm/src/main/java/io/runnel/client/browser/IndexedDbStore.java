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
 *
 * <p>The journal. A page can go (a reload, a closed tab) between {@code put} answering and IndexedDB committing,
 * which takes a while when the database is still opening: so {@code put} first copies the entry to
 * {@code localStorage} under {@code runnel-journal:<key>} (synchronous, so it survives the page; outside the
 * {@code runnel.} keys that the {@code localStorage} fallback counts toward its cap), and the copy goes once
 * IndexedDB committed that value ({@code remove} drops it at once). Opening the database writes every copy left by
 * an earlier page (or a sibling tab still writing it) before any other call, so a call made just before a reload is
 * kept; a value written twice, or an entry removed after a copy was replayed, is an entry sent again under its
 * idempotency key, which the node answers once. The copies of this page's own calls waiting for the open are left
 * to those calls, so they land once and in order. Where {@code localStorage} refuses, there is no journal.
 */
final class IndexedDbStore {

  private IndexedDbStore() {}

  /** Opens database {@code name}; {@code fallback} (a store) is used instead if it fails to open. */
  @JSBody(params = {"name", "fallback"}, script = "var store = {refused: function() {}}, journal = 'runnel-journal:',"
      + " waiting = {}, opening = true;"
      + " function note(key, value) { try { if (value === null) { localStorage.removeItem(journal + key); }"
      + " else { localStorage.setItem(journal + key, value); } } catch (error) {} }"
      + " function write(db, key, value) { if (!db) { if (!fallback.put(key, value)) { store.refused(key); }"
      + " note(key, null); return; } var tx = db.transaction('kv', 'readwrite');"
      + " tx.onabort = function() { store.refused(key); }; tx.oncomplete = function() { try {"
      + " if (localStorage.getItem(journal + key) === value) { note(key, null); } } catch (error) {} };"
      + " tx.objectStore('kv').put(value, key); }"
      + " var ready = new Promise(function(resolve) { function opened(db) { var held = [];"
      + " try { for (var index = 0; index < localStorage.length; index++) { var stored = localStorage.key(index);"
      + " if (stored !== null && stored.indexOf(journal) === 0) { held.push(stored); } } } catch (error) {}"
      + " held.forEach(function(stored) { try { var key = stored.substring(journal.length);"
      + " if (!waiting[key]) { write(db, key, localStorage.getItem(stored)); } } catch (error) {} });"
      + " opening = false; resolve(db); }"
      + " try { var open = indexedDB.open(name, 1);"
      + " open.onupgradeneeded = function() { open.result.createObjectStore('kv'); };"
      + " open.onsuccess = function() { opened(open.result); };"
      + " open.onerror = function(ev) { ev.preventDefault(); opened(null); }; } catch (error) { opened(null); } });"
      + " store.put = function(key, value) { note(key, value); if (opening) { waiting[key] = true; }"
      + " ready.then(function(db) { try { write(db, key, value); }"
      + " catch (error) { store.refused(key); } }); return true; };"
      + " store.remove = function(key) { note(key, null); if (opening) { waiting[key] = true; }"
      + " ready.then(function(db) { try { if (!db) {"
      + " fallback.remove(key); } else { db.transaction('kv', 'readwrite').objectStore('kv').delete(key); } }"
      + " catch (error) {} }); };"
      + " store.list = function(prefix, done) { ready.then(function(db) { if (!db) { fallback.list(prefix, done);"
      + " return; } var out = []; try { var req = db.transaction('kv', 'readonly').objectStore('kv')"
      + ".openCursor(IDBKeyRange.lowerBound(prefix)); req.onsuccess = function() { var at = req.result;"
      + " if (at && typeof at.key === 'string' && at.key.indexOf(prefix) === 0) {"
      + " out.push(at.key, String(at.value)); at.continue(); } else { done(out); } };"
      + " req.onerror = function(ev) { ev.preventDefault(); done([]); }; } catch (error) { done([]); } }); };"
      + " return store;")
  static native JSObject create(String name, JSObject fallback);
}
