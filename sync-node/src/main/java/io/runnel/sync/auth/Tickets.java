package io.runnel.sync.auth;

import io.runnel.dsl.Actor;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Single-use tickets for {@code /v1/sync?ticket=} ({@code docs/protocol.md}: browsers cannot set headers on a
 * WebSocket). A ticket carries the actor, its own expiry (30 s) and the expiry of the grant it was issued for, signed
 * with HMAC-SHA256, so any node that shares the key can verify it; its single use is recorded in a
 * {@link TicketStore}. The socket it opens holds the grant until that grant's expiry, not the ticket's.
 */
public final class Tickets {

  /** How long a ticket is valid. */
  public static final Duration LIFETIME = Duration.ofSeconds(30);

  private final byte[] key;
  private final TicketStore store;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  private Tickets(byte[] key, TicketStore store, Clock clock) {
    this.key = key.clone();
    this.store = store;
    this.clock = clock;
  }

  /**
   * Tickets signed with {@code key} (at least 32 bytes; nodes that honour each other's tickets share it).
   *
   * @throws IllegalArgumentException for a shorter key
   */
  public static Tickets create(byte[] key, TicketStore store, Clock clock) {
    if (key.length < 32) {
      throw new IllegalArgumentException("A ticket key needs at least 32 bytes");
    }
    return new Tickets(key, store, clock);
  }

  /** Tickets signed with a random key of this process, recorded in memory. */
  public static Tickets local(Clock clock) {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return new Tickets(key, TicketStore.inMemory(), clock);
  }

  /** A ticket issued now for {@code actor}, and when it expires. */
  public record Issued(String ticket, long expiresAt) {}

  /** Issues a ticket for {@code actor}, valid for {@link #LIFETIME} but never past {@code grantExpiresAt}. */
  public Issued issue(Actor actor, long grantExpiresAt) {
    long expiresAt = Math.min(clock.millis() + LIFETIME.toMillis(), grantExpiresAt);
    byte[] id = new byte[12];
    random.nextBytes(id);
    JsonObject body = JsonObject.builder()
        .put("id", HexFormat.of().formatHex(id))
        .put("sub", actor.id())
        .put("org", actor.orgId())
        .put("roles", JsonArray.ofStrings(actor.roles().stream().sorted().toList()))
        .put("permissions", JsonArray.ofStrings(actor.permissions().stream().sorted().toList()))
        .put("exp", expiresAt)
        .put("grantExp", grantExpiresAt)
        .build();
    String payload = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(body.toString().getBytes(StandardCharsets.UTF_8));
    return new Issued(payload + "." + sign(payload), expiresAt);
  }

  /**
   * The grant of {@code ticket}, claiming it: null when it is malformed, forged, expired or already used. The grant
   * expires when the one the ticket was issued for does (a ticket of a node that did not record it: when the ticket
   * does).
   *
   * @throws Exception when the ticket store cannot be reached
   */
  public @Nullable Grant redeem(String ticket) throws Exception {
    int dot = ticket.indexOf('.');
    if (dot <= 0) {
      return null;
    }
    String payload = ticket.substring(0, dot);
    if (!MessageDigest.isEqual(sign(payload).getBytes(StandardCharsets.US_ASCII),
        ticket.substring(dot + 1).getBytes(StandardCharsets.US_ASCII))) {
      return null;
    }
    JsonObject body;
    try {
      body = (JsonObject) Json.parse(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      return null;
    }
    JsonValue expires = body.get("exp");
    String id = text(body.get("id"));
    if (expires == null || id == null) {
      return null;
    }
    long exp = Long.parseLong(expires.toString());
    if (exp <= clock.millis() || !store.claim(id, exp)) {
      return null;
    }
    Actor actor = new Actor(text(body.get("sub")), text(body.get("org")), strings(body.get("roles")),
        strings(body.get("permissions")));
    long grantExp = body.get("grantExp") instanceof JsonNumber n ? Long.parseLong(n.toString()) : exp;
    return new Grant(actor, Math.max(exp, grantExp));
  }

  private static @Nullable String text(@Nullable JsonValue v) {
    return v instanceof JsonString s ? s.value() : null;
  }

  private static Set<String> strings(@Nullable JsonValue v) {
    Set<String> out = new LinkedHashSet<>();
    if (v instanceof JsonArray a) {
      for (JsonValue e : a.elements()) {
        if (e instanceof JsonString s) {
          out.add(s.value());
        }
      }
    }
    return out;
  }

  private String sign(String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Base64.getUrlEncoder().withoutPadding()
          .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

}
