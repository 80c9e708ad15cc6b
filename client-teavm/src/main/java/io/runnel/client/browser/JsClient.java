package io.runnel.client.browser;

import io.runnel.client.Refs;
import io.runnel.client.RunnelClient;
import io.runnel.client.browser.internal.JsHttpPort;
import io.runnel.client.browser.internal.JsIds;
import io.runnel.client.browser.internal.JsScheduler;
import io.runnel.client.browser.internal.JsSocketPort;
import io.runnel.client.bundle.PageClient;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.Subscription;
import io.runnel.client.port.JsonPort;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * The object a bundle's {@code connect({url, credentials})} answers: a {@link PageClient} over the browser's ports,
 * as the page's JavaScript calls it ({@code docs/dsl.md}, "The app's client bundle"). Inputs are JavaScript values
 * (sent through {@code JSON.stringify}); listeners hear plain objects (built by {@code JSON.parse}).
 *
 * <pre>{@code
 * const runnel = connect({ url: location.origin, credentials: async ({ refresh }) => token });
 * const feed = runnel.query('liveFeed', { orgId: 'acme' }, ({ status, records, error }) => render(…));
 * const { writeId, result, error } = await runnel.mutate('likePost', { postId });
 * const post = runnel.record('posts', postId, ({ record, error }) => show(…));
 * runnel.connection(({ state, reconnectAt }) => …);   runnel.outbox(({ pending, failed }) => …);
 * const org = runnel.channel('org', { orgId: 'acme' }, { presence: { name: 'Ada' }, onEvent: (event, payload) => …,
 *     onState: ({ state, error }) => …, onPresence: ({ members, total }) => … });
 * const watch = runnel.presence('org', { orgId: 'acme' }, ({ members, total }) => …);   // not announced
 * org.release();
 * feed.release();   runnel.close();
 * }</pre>
 */
public final class JsClient {

  private final PageClient page;

  private JsClient(PageClient page) {
    this.page = page;
  }

  /**
   * Builds the client of an app over {@code refs} from the browser's ports (the durable store of
   * {@link JsDurableStore#open()}, {@link JsTabs#open()}, {@link JsPageEvents}) and {@code options} ({@code url}: the
   * node's origin; {@code credentials}, optional: a function of {@code {refresh}} answering a bearer token or a
   * promise of one, else the session cookie is used; {@code orgId}, optional: the signed-in actor's org as the page
   * knows it, see {@link RunnelClient.Builder#orgId}), and opens its socket.
   *
   * @throws IllegalArgumentException when {@code url} is not an http(s) origin
   */
  public static JsClient connect(Refs refs, JsonPort json, JSObject options) {
    Objects.requireNonNull(refs, "refs");
    JSObject credentials = credentials(options);
    RunnelClient client = RunnelClient.builder()
        .ports(new JsSocketPort(), new JsHttpPort(), JsDurableStore.open(), json, new JsIds(), new JsScheduler())
        .tabs(JsTabs.open()).pageEvents(new JsPageEvents()).origin(url(options)).refs(refs).orgId(orgId(options))
        .credentials(credentials == null ? Credentials.cookie() : token(credentials)).create();
    PageClient page = new PageClient(client, refs, json);
    page.connect();
    return new JsClient(page);
  }

  /** Subscribes to live query {@code name}; {@code onView} hears {@code {status, error?, records}}. */
  @JSExport
  public Handle query(String name, JSObject input, Callback onView) {
    Runnable release = page.query(name, stringify(input), new Relay(onView));
    return new Handle(release::run);
  }

  /**
   * {@code onRecord} hears {@code {type, key, record}} for record {@code type:key} now and at every change:
   * {@code record} is the row with the overlay applied, or null while no live query or pending write of the page
   * holds it; an unknown type is one answer with {@code record: null} and an {@code error}.
   */
  @JSExport
  public Handle record(String type, String key, Callback onRecord) {
    return new Handle(page.record(type, key, new Relay(onRecord)));
  }

  /**
   * Calls mutator {@code name}: its twin runs into the overlay now; the promise resolves (it never rejects) with
   * {@code {writeId, result}} or {@code {writeId?, error}}.
   */
  @JSExport
  public JSObject mutate(String name, JSObject input) {
    String text = stringify(input);
    return promise(resolve -> page.mutate(name, text, new Relay(resolve)));
  }

  /** {@code onState} hears {@code {state, epoch, reconnectAt?}} now and at every change. */
  @JSExport
  public Handle connection(Callback onState) {
    return new Handle(page.connection(new Relay(onState)));
  }

  /** {@code onOutbox} hears {@code {pending, failed}} now and at every change. */
  @JSExport
  public Handle outbox(Callback onOutbox) {
    return new Handle(page.outbox(new Relay(onOutbox)));
  }

  /** {@code onError} hears {@code {code, cause, fix}} for each error not tied to a call. */
  @JSExport
  public Handle errors(Callback onError) {
    return new Handle(page.errors(new Relay(onError)));
  }

  /**
   * Opens the registered channel {@code name} with {@code params} ({@code {orgId: 'acme'}}); {@code options}
   * (optional): {@code presence}, the page's meta to announce; {@code onEvent(event, payload)} for each broadcast;
   * {@code onState} hears {@code {state, error?}} and {@code onPresence} the roster {@code {members, total}} now and
   * at every change. The handle's {@code release()} leaves.
   */
  @JSExport
  public Handle channel(String name, JSObject params, JSObject options) {
    return new Handle(page.channel(name, stringify(params), presence(options), new Relay(listener(options, "onState")),
        new Relay(onEvent(options)), new Relay(listener(options, "onPresence"))));
  }

  /**
   * Watches the roster of the registered channel {@code name}'s topic for {@code params} without announcing the
   * page: {@code onPresence} (optional) hears {@code {members, total}} now and at every change, and
   * {@code {members: [], total: 0, error}} when the name or params are refused or the node refuses the join. The
   * handle's {@code release()} leaves (when no other handle holds the topic).
   */
  @JSExport
  public Handle presence(String name, JSObject params, JSObject onPresence) {
    return new Handle(page.presence(name, stringify(params), new Relay(function(onPresence))));
  }

  /**
   * The topic of the registered channel {@code name} for {@code params}, as {@code channel} joins it ({@code
   * 'org.a%2Eb'} for {@code {orgId: 'a.b'}}: each param percent-encoded), or null when the bundle does not register
   * the channel or the params do not fit.
   */
  @JSExport
  public @Nullable String topic(String name, JSObject params) {
    return page.topic(name, stringify(params));
  }

  /** Forgets failed write {@code writeId}. */
  @JSExport
  public void dismiss(String writeId) {
    page.dismiss(writeId);
  }

  /** Closes the socket and stops reconnecting. */
  @JSExport
  public void close() {
    page.close();
  }

  /** What a subscription answers: {@code release()} ends it. */
  public static final class Handle {
    private final Subscription end;

    Handle(Subscription end) {
      this.end = end;
    }

    /** Ends the subscription; does nothing the second time. */
    @JSExport
    public void release() {
      end.cancel();
    }
  }

  /**
   * Hands each JSON text to a page's listener as the value {@code JSON.parse} makes of it: one class for every
   * listener (a lambda per call site would be one class each in the bundle).
   */
  private static final class Relay implements Consumer<String> {
    private final Callback listener;

    Relay(Callback listener) {
      this.listener = listener;
    }

    @Override
    public void accept(String text) {
      listener.call(parse(text));
    }
  }

  /** A page's listener. */
  @JSFunctor
  public interface Callback extends JSObject {
    /** Hears {@code value}. */
    void call(JSObject value);
  }

  /** Starts a promise's work with its resolve function. */
  @JSFunctor
  interface Executor extends JSObject {
    /** Starts it. */
    void start(Callback resolve);
  }

  /** Hears a token, or null. */
  @JSFunctor
  interface TokenCallback extends JSObject {
    /** Hears it. */
    void done(String token);
  }

  private static Credentials token(JSObject credentials) {
    return (refresh, done) -> callCredentials(credentials, refresh, done::accept);
  }

  @JSBody(params = "o", script = "return String(o.url);")
  private static native String url(JSObject o);

  @JSBody(params = "o", script = "return typeof o.orgId === 'string' ? o.orgId : null;")
  private static native @Nullable String orgId(JSObject o);

  @JSBody(params = "o", script = "return typeof o.credentials === 'function' ? o.credentials : null;")
  private static native JSObject credentials(JSObject o);

  @JSBody(params = {"f", "refresh", "done"}, script = "Promise.resolve().then(function() {"
      + " return f({refresh: refresh}); }).then(function(token) {"
      + " done(token === null || token === undefined ? null : String(token)); },"
      + " function() { done(null); });")
  private static native void callCredentials(JSObject f, boolean refresh, TokenCallback done);

  @JSBody(params = "o", script = "return o && o.presence !== undefined && o.presence !== null"
      + " ? JSON.stringify(o.presence) : null;")
  private static native @Nullable String presence(JSObject o);

  @JSBody(params = {"o", "name"}, script = "return o && typeof o[name] === 'function' ? o[name] : function() {};")
  private static native Callback listener(JSObject o, String name);

  @JSBody(params = "f", script = "return typeof f === 'function' ? f : function() {};")
  private static native Callback function(JSObject f);

  @JSBody(params = "o", script = "var fn = o && typeof o.onEvent === 'function' ? o.onEvent : null;"
      + " return function(ev) { if (fn) { fn(ev.event, ev.payload); } };")
  private static native Callback onEvent(JSObject o);

  @JSBody(params = "v", script = "return JSON.stringify(v === undefined ? null : v);")
  private static native String stringify(JSObject v);

  @JSBody(params = "t", script = "return JSON.parse(t);")
  private static native JSObject parse(String t);

  @JSBody(params = "start", script = "return new Promise(function(resolve) { start(resolve); });")
  private static native JSObject promise(Executor start);
}
