package io.runnel.client.browser.internal;

import io.runnel.client.port.SocketPort;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSFunctor;
import org.teavm.jso.JSObject;

/**
 * Sockets over the browser's {@code WebSocket} (node 22 has one too). A URL the browser refuses at once reports a
 * close 1006 on the next turn, as a socket that failed to connect does; binary frames are ignored.
 */
public final class JsSocketPort implements SocketPort {

  @Override
  public Connection open(String url, Listener listener) {
    JSObject ws = openSocket(url, listener::opened, listener::text, listener::closed);
    return new Connection() {
      @Override
      public void send(String text) {
        sendText(ws, text);
      }

      @Override
      public void close(int code, String reason) {
        closeSocket(ws, code, reason);
      }
    };
  }

  /** The socket opened. */
  @JSFunctor
  interface Opened extends JSObject {
    /** Called once. */
    void opened();
  }

  /** A text frame arrived. */
  @JSFunctor
  interface Text extends JSObject {
    /** Called per frame. */
    void text(String frame);
  }

  /** The socket closed. */
  @JSFunctor
  interface Closed extends JSObject {
    /** Called once. */
    void closed(int code, String reason);
  }

  // TeaVM's minifier renames a body's parameters to short names (b, c, d, e, ...) and leaves the script's own
  // names alone: a one-letter name inside the script can shadow a renamed parameter (a handler's "function(e)" hid
  // "closed", renamed e, so no close was ever reported). Names inside these scripts are whole words.
  @JSBody(params = {"url", "opened", "text", "closed"}, script = "var ws;"
      + " try { ws = new WebSocket(url); } catch (error) {"
      + " setTimeout(function() { closed(1006, String(error.message)); }, 0); return null; }"
      + " ws.onopen = function() { opened(); };"
      + " ws.onmessage = function(event) { if (typeof event.data === 'string') { text(event.data); } };"
      + " ws.onclose = function(event) { closed(event.code, String(event.reason)); };"
      + " return ws;")
  private static native JSObject openSocket(String url, Opened opened, Text text, Closed closed);

  @JSBody(params = {"ws", "t"}, script = "if (ws !== null && ws.readyState === 1) { ws.send(t); }")
  private static native void sendText(JSObject ws, String t);

  @JSBody(params = {"ws", "code", "reason"}, script = "if (ws !== null) { try { ws.close(code, reason); }"
      + " catch (error) { ws.close(); } }")
  private static native void closeSocket(JSObject ws, int code, String reason);
}
