package io.runnel.client.browser;

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

  @JSBody(params = {"url", "opened", "text", "closed"}, script = "var ws;"
      + " try { ws = new WebSocket(url); } catch (e) {"
      + " setTimeout(function() { closed(1006, String(e.message)); }, 0); return null; }"
      + " ws.onopen = function() { opened(); };"
      + " ws.onmessage = function(e) { if (typeof e.data === 'string') { text(e.data); } };"
      + " ws.onclose = function(e) { closed(e.code, String(e.reason)); };"
      + " return ws;")
  private static native JSObject openSocket(String url, Opened opened, Text text, Closed closed);

  @JSBody(params = {"ws", "t"}, script = "if (ws !== null && ws.readyState === 1) { ws.send(t); }")
  private static native void sendText(JSObject ws, String t);

  @JSBody(params = {"ws", "code", "reason"}, script = "if (ws !== null) { try { ws.close(code, reason); }"
      + " catch (e) { ws.close(); } }")
  private static native void closeSocket(JSObject ws, int code, String reason);
}
