package io.runnel.client.testapp;

import io.runnel.client.browser.JsDurableStore;
import io.runnel.client.browser.JsPageEvents;
import io.runnel.client.browser.JsTabs;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.PageEvents;
import io.runnel.client.port.Tabs;
import java.util.Map;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * The entry class of {@code browser-probe.js}, a bundle for the Chromium tests only
 * ({@code DurableStoreInChromiumTest}, {@code TabsInChromiumTest}): it hands a page the browser bindings the client
 * is built from ({@link JsDurableStore#open()}, {@link JsTabs#open()}, {@link JsPageEvents}) through their Java
 * interfaces, so the tests drive the same code the client calls. It is in neither the jar nor the app bundles.
 */
public final class BrowserProbe {

  private BrowserProbe() {}

  /** The page's durable store, as {@code connect} chooses it. */
  @JSExport
  public static StoreProbe store() {
    return new StoreProbe(JsDurableStore.open());
  }

  /** The page's tabs, as {@code connect} chooses them. */
  @JSExport
  public static TabsProbe tabs() {
    return new TabsProbe(JsTabs.open());
  }

  /** Calls {@code onEvent} with {@code "online"}, {@code "offline"} or {@code "visible"} at each page event. */
  @JSExport
  public static void pageEvents(Heard onEvent) {
    new JsPageEvents().listen(new PageEvents.Listener() {
      @Override
      public void online() {
        onEvent.heard("online");
      }

      @Override
      public void offline() {
        onEvent.heard("offline");
      }

      @Override
      public void visible() {
        onEvent.heard("visible");
      }
    });
  }

  /** A {@link DurableStore} as a page calls it. */
  public static final class StoreProbe {
    private final DurableStore store;

    StoreProbe(DurableStore store) {
      this.store = store;
    }

    /** {@link DurableStore#put}. */
    @JSExport
    public boolean put(String key, String value) {
      return store.put(key, value);
    }

    /** {@link DurableStore#remove}. */
    @JSExport
    public void remove(String key) {
      store.remove(key);
    }

    /** {@link DurableStore#list}: {@code done} hears an object of the entries, in the map's order. */
    @JSExport
    public void list(String prefix, Found done) {
      store.list(prefix, entries -> {
        JSObject out = newObject();
        for (Map.Entry<String, String> e : entries.entrySet()) {
          set(out, e.getKey(), e.getValue());
        }
        done.found(out);
      });
    }

    /** {@link DurableStore#onRefused}: {@code listener} hears each refused key. */
    @JSExport
    public void onRefused(Heard listener) {
      store.onRefused(listener::heard);
    }
  }

  /** {@link Tabs} as a page calls them. */
  public static final class TabsProbe {
    private final Tabs tabs;

    TabsProbe(Tabs tabs) {
      this.tabs = tabs;
    }

    /** {@link Tabs#lead}: {@code granted} hears the lock's name when this page holds it. */
    @JSExport
    public LeaseProbe lead(String name, Heard granted) {
      return new LeaseProbe(tabs.lead(name, () -> granted.heard(name)));
    }

    /** {@link Tabs#post}. */
    @JSExport
    public void post(String text) {
      tabs.post(text);
    }

    /** {@link Tabs#listen}. */
    @JSExport
    public void listen(Heard listener) {
      tabs.listen(listener::heard);
    }
  }

  /** A {@link Tabs.Lease} as a page calls it. */
  public static final class LeaseProbe {
    private final Tabs.Lease lease;

    LeaseProbe(Tabs.Lease lease) {
      this.lease = lease;
    }

    /** {@link Tabs.Lease#release}. */
    @JSExport
    public void release() {
      lease.release();
    }
  }

  /** A page's callback of a text. */
  @JSFunctor
  public interface Heard extends JSObject {
    /** Hears {@code text}. */
    void heard(String text);
  }

  /** A page's callback of an object. */
  @JSFunctor
  public interface Found extends JSObject {
    /** Hears {@code value}. */
    void found(JSObject value);
  }

  @JSBody(script = "return {};")
  private static native JSObject newObject();

  @JSBody(params = {"o", "k", "v"}, script = "o[k] = v;")
  private static native void set(JSObject o, String k, String v);
}
