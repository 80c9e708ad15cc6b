package io.runnel.client.browser.internal;

import io.runnel.client.port.HttpPort;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * HTTP over the browser's {@code fetch}, sending the page's cookies to the node ({@code credentials: "include"}).
 * An answer's {@code Retry-After} is read as seconds, or as an HTTP date counted from now; a fetch that rejects
 * (offline, DNS, a refused CORS request) is {@link HttpPort.NetworkFailed} with the browser's message.
 */
public final class JsHttpPort implements HttpPort {

  @Override
  public void send(Request request, Consumer<Outcome> done) {
    JSObject headers = newObject();
    for (Map.Entry<String, String> h : request.headers().entrySet()) {
      set(headers, h.getKey(), h.getValue());
    }
    fetch(request.method(), request.url(), headers, request.body(),
        (status, body, retryAfter) -> done.accept(new Answered(status, body, (long) retryAfter)),
        reason -> done.accept(new NetworkFailed(reason)));
  }

  /** The node answered. */
  @JSFunctor
  interface AnsweredCallback extends JSObject {
    /** {@code retryAfter} is seconds, or -1 when the header is absent or unreadable. */
    void answered(int status, String body, double retryAfter);
  }

  /** No answer. */
  @JSFunctor
  interface FailedCallback extends JSObject {
    /** Why. */
    void failed(String reason);
  }

  @JSBody(script = "return {};")
  private static native JSObject newObject();

  @JSBody(params = {"o", "k", "v"}, script = "o[k] = v;")
  private static native void set(JSObject o, String k, String v);

  @JSBody(params = {"method", "url", "headers", "body", "answered", "failed"}, script = "var init = {method: method,"
      + " headers: headers, credentials: 'include'}; if (body !== null) { init.body = body; }"
      + " fetch(url, init).then(function(response) { return response.text().then(function(text) {"
      + " return [response, text]; }); }).then("
      + " function(pair) { var header = pair[0].headers.get('Retry-After'), seconds = -1;"
      + " if (header !== null) { header = header.trim(); if (/^[0-9]+$/.test(header)) { seconds = Number(header); }"
      + " else { var date = Date.parse(header);"
      + " if (!isNaN(date)) { seconds = Math.max(0, Math.ceil((date - Date.now()) / 1000)); } } }"
      + " answered(pair[0].status, pair[1], seconds); },"
      + " function(error) { failed(String(error && error.message ? error.message : error)); });")
  private static native void fetch(String method, String url, JSObject headers, @Nullable String body,
      AnsweredCallback answered, FailedCallback failed);
}
