package io.runnel.client.browser;

import io.runnel.client.port.DurableStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * The page's durable store: IndexedDB ({@link IndexedDbStore}, database {@value #DATABASE}); where the page has no
 * IndexedDB, or it fails to open, {@code localStorage} with a cap of {@value LocalStorageStore#CAP_CHARS}
 * characters ({@link LocalStorageStore}); where that is missing too, memory for the page's lifetime
 * ({@link MemoryStore}).
 *
 * <p>Each of those is a JavaScript object with {@code put(key, value)} (true when accepted), {@code remove(key)},
 * {@code list(prefix, done)} (done hears {@code [key1, value1, key2, value2, …]}) and a {@code refused(key)}
 * function for writes refused after {@code put} accepted them; this class adapts it to {@link DurableStore}. The
 * logic stays in JavaScript, where the fallback replays what waited for IndexedDB, and because it costs the bundle
 * less than the same in Java.
 */
public final class JsDurableStore implements DurableStore {

  /** The IndexedDB database the client keeps its entries in. */
  public static final String DATABASE = "runnel";

  private final JSObject store;

  private JsDurableStore(JSObject store) {
    this.store = store;
  }

  /** The best store the page has (see the class comment). */
  public static DurableStore open() {
    JSObject local = LocalStorageStore.available()
        ? LocalStorageStore.create(LocalStorageStore.COUNTED, LocalStorageStore.CAP_CHARS) : MemoryStore.create();
    return new JsDurableStore(indexedDb() ? IndexedDbStore.create(DATABASE, local) : local);
  }

  @Override
  public boolean put(String key, String value) {
    return put(store, key, value);
  }

  @Override
  public void remove(String key) {
    remove(store, key);
  }

  @Override
  public void list(String prefix, Consumer<Map<String, String>> done) {
    list(store, prefix, pairs -> {
      Map<String, String> out = new LinkedHashMap<>();
      int n = length(pairs);
      for (int i = 0; i + 1 < n; i += 2) {
        out.put(at(pairs, i), at(pairs, i + 1));
      }
      done.accept(out);
    });
  }

  @Override
  public void onRefused(Consumer<String> listener) {
    refused(store, listener::accept);
  }

  /** Hears keys and values in turn. */
  @JSFunctor
  interface Found extends JSObject {
    /** Called once per list. */
    void found(JSObject pairs);
  }

  @JSBody(script = "try { return typeof indexedDB !== 'undefined' && indexedDB !== null; } catch (er) {"
      + " return false; }")
  private static native boolean indexedDb();

  @JSBody(params = {"store", "key", "value"}, script = "return store.put(key, value);")
  private static native boolean put(JSObject store, String key, String value);

  @JSBody(params = {"store", "key"}, script = "store.remove(key);")
  private static native void remove(JSObject store, String key);

  @JSBody(params = {"store", "prefix", "done"}, script = "store.list(prefix, done);")
  private static native void list(JSObject store, String prefix, Found done);

  @JSBody(params = {"store", "listener"}, script = "store.refused = listener;")
  private static native void refused(JSObject store, JsTabs.Text listener);

  @JSBody(params = "pairs", script = "return pairs.length;")
  private static native int length(JSObject pairs);

  @JSBody(params = {"pairs", "at"}, script = "return pairs[at];")
  private static native String at(JSObject pairs, int at);
}
