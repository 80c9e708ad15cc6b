package io.runnel.client.browser;

import io.runnel.client.port.DurableStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.teavm.jso.JSBody;

/**
 * The durable store over the browser's {@code localStorage}, which survives a reload. Where the page has none (or
 * it refuses access, as some private modes do) the entries live in memory for the page's lifetime; a write the
 * browser refuses (its quota is full) answers false, and what was there is kept. {@link #list} answers at once.
 */
public final class JsDurableStore implements DurableStore {

  private final Map<String, String> memory = new LinkedHashMap<>();
  private final boolean local = available();

  @Override
  public boolean put(String key, String value) {
    if (local) {
      return setItem(key, value);
    }
    memory.put(key, value);
    return true;
  }

  @Override
  public void remove(String key) {
    if (local) {
      removeItem(key);
    } else {
      memory.remove(key);
    }
  }

  @Override
  public void list(String prefix, Consumer<Map<String, String>> done) {
    Map<String, String> out = new LinkedHashMap<>();
    if (local) {
      int n = length();
      for (int i = 0; i < n; i++) {
        String key = key(i);
        if (key != null && key.startsWith(prefix)) {
          String value = getItem(key);
          if (value != null) {
            out.put(key, value);
          }
        }
      }
    } else {
      for (Map.Entry<String, String> e : memory.entrySet()) {
        if (e.getKey().startsWith(prefix)) {
          out.put(e.getKey(), e.getValue());
        }
      }
    }
    done.accept(out);
  }

  @JSBody(script = "try { return typeof localStorage !== 'undefined' && localStorage !== null"
      + " && typeof localStorage.getItem === 'function'; } catch (e) { return false; }")
  private static native boolean available();

  @JSBody(params = {"k", "v"}, script = "try { localStorage.setItem(k, v); return true; } catch (e) { return false; }")
  private static native boolean setItem(String k, String v);

  @JSBody(params = "k", script = "localStorage.removeItem(k);")
  private static native void removeItem(String k);

  @JSBody(script = "return localStorage.length;")
  private static native int length();

  @JSBody(params = "i", script = "return localStorage.key(i);")
  private static native String key(int i);

  @JSBody(params = "k", script = "return localStorage.getItem(k);")
  private static native String getItem(String k);
}
