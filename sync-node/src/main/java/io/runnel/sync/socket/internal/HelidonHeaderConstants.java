package io.runnel.sync.socket.internal;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.websocket.WsConfig;
import io.helidon.webserver.websocket.WsUpgrader;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * Works around a data race in Helidon 4.5.0 that answered about one WebSocket upgrade in a thousand with 500 under a
 * burst of upgrades on a fresh node ({@code docs/operating.md}, "Helidon's shared header constants").
 *
 * <p>The race: {@code HeaderValueSingle.allValues()} fills its list lazily, assigning an empty {@code ArrayList} to
 * its field and then adding the value. Helidon keeps such headers as constants shared by every connection's thread
 * ({@code WsUpgrader}'s {@code Connection: Upgrade}, which {@code isWebSocketUpgrade} hands to
 * {@code Headers.containsToken}; {@code HeaderValues.CONNECTION_CLOSE} and others on the HTTP/1 path), so the first
 * connections to use one at the same time can see its list while another thread adds to it:
 * {@code ConcurrentModificationException}, or an empty list. Once a constant's list is filled it never changes, so
 * filling each one on a single thread before the server starts (a thread start orders it before every connection's
 * reads) leaves nothing to race.
 *
 * <p>Invariant: {@link #fill()} has run before the node's web server accepts its first connection.
 */
public final class HelidonHeaderConstants extends WsUpgrader {

  private HelidonHeaderConstants() {
    super(WsConfig.create());
  }

  /**
   * Fills the lazily built value list of every header constant Helidon shares across connections: each public
   * constant of {@link HeaderValues}, and the upgrader's {@code Connection: Upgrade} (reached through
   * {@link WsUpgrader#isWebSocketUpgrade}, the call that raced).
   */
  public static void fill() {
    for (Field f : HeaderValues.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && Header.class.isAssignableFrom(f.getType())) {
        try {
          ((Header) f.get(null)).allValues();
        } catch (IllegalAccessException e) {
          throw new IllegalStateException("HeaderValues." + f.getName() + " is public yet not readable", e);
        }
      }
    }
    WritableHeaders<?> upgrade = WritableHeaders.create();
    upgrade.set(HeaderNames.UPGRADE, "websocket");
    upgrade.set(HeaderNames.CONNECTION, "Upgrade");
    if (!isWebSocketUpgrade(upgrade)) {
      throw new IllegalStateException("Helidon's WsUpgrader did not read a WebSocket upgrade as one");
    }
  }
}
