package io.runnel.loadtest;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor and the ceiling of the socket scenarios: a minimal Helidon WebServer with one WebSocket route on
 * {@code /v1/sync} and no Runnel state. It echoes every text frame; a frame {@code sub <tenant>} also files the
 * socket under that tenant, so {@link #blast} can fan pre-encoded frames out to a tenant's sockets as a Runnel node
 * fans a change out to the subscribers of a window.
 */
final class BareNode implements SocketNode.Server {

  private final Map<Integer, List<WsSession>> byTenant = new ConcurrentHashMap<>();
  private final WebServer server;

  private BareNode() {
    this.server = WebServer.builder().host("127.0.0.1").port(0)
        .addRouting(WsRouting.builder().endpoint("/v1/sync", Echo::new)).build();
  }

  /** A started server on a free port. */
  static BareNode start() {
    BareNode n = new BareNode();
    n.server.start();
    return n;
  }

  @Override
  public int port() {
    return server.port();
  }

  /**
   * Fans out {@code changes} changes at {@code rate} a second (0: as fast as one thread sends them), for at most
   * {@code seconds}: change {@code i} goes to the sockets of tenant
   * {@code i % tenants} as one frame of about {@code frameBytes} bytes carrying {@code "seq":"<i>"} and
   * {@code "sent":<System.nanoTime()>}, encoded once per change. Paced on an absolute schedule, so a late change
   * is sent at once rather than shifting the rest.
   */
  @Override
  public String blast(double rate, long changes, double seconds, int tenants, int frameBytes) {
    long frames = 0;
    long t0 = System.nanoTime();
    long end = t0 + (long) (seconds * 1e9);
    long i = 0;
    for (; i < changes && System.nanoTime() < end; i++) {
      if (rate > 0) {
        long due = t0 + (long) (i * 1e9 / rate);
        long wait;
        while ((wait = due - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
      }
      List<WsSession> group = byTenant.get((int) (i % tenants));
      if (group == null) {
        continue;
      }
      String frame = frame(i, System.nanoTime(), frameBytes);
      for (WsSession s : group) {
        try {
          s.send(frame, true);
          frames++;
        } catch (RuntimeException e) {
          // a socket that went away: not counted
        }
      }
    }
    return i + " " + frames + " " + (System.nanoTime() - t0);
  }

  /** A patch-like frame of about {@code bytes} bytes (at least its fixed part) for change {@code seq}. */
  static String frame(long seq, long sentNanos, int bytes) {
    String head = "{\"t\":\"patch\",\"sid\":\"s\",\"sent\":" + sentNanos
        + ",\"ops\":[{\"op\":\"put\",\"type\":\"feed\","
        + "\"key\":\"" + seq + "\",\"row\":{\"seq\":\"" + seq + "\",\"org\":\"o\",\"body\":\"";
    String tail = "\"},\"after\":null}]}";
    int pad = Math.max(0, bytes - head.length() - tail.length());
    return head + "x".repeat(pad) + tail;
  }

  @Override
  public void stop() {
    server.stop();
  }

  private final class Echo implements WsListener {
    @Override
    public void onMessage(WsSession session, String text, boolean last) {
      if (text.startsWith("sub ")) {
        byTenant.computeIfAbsent(Integer.parseInt(text.substring(4).trim()), k -> new CopyOnWriteArrayList<>())
            .add(session);
      }
      session.send(text, last);
    }

    @Override
    public void onClose(WsSession session, int status, String reason) {
      byTenant.values().forEach(g -> g.remove(session));
    }
  }
}
