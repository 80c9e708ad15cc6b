package io.runnel.sync.live.internal;

import io.runnel.dsl.Actor;
import io.runnel.wire.PercentEncoding;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A window's identity ({@code docs/protocol.md}, "Cursor"): {@code <name>:<16 hex>@<tenant>}, where {@code <tenant>} is
 * the actor's org id percent-encoded, {@code -} for no org or an entity with no tenant column, and
 * {@code <org>/<actor id>} (each part percent-encoded) for a query whose source reads the actor.
 *
 * @param qid {@code <name>:<16 hex of SHA-256 over the canonical input>}
 * @param tenant the tenant part
 */
public record WindowId(String qid, String tenant) {

  /** Checks both parts are given. */
  public WindowId {
    Objects.requireNonNull(qid, "qid");
    Objects.requireNonNull(tenant, "tenant");
  }

  /**
   * The id of a window of {@code qid}.
   *
   * @param org the tenant pinned, or null when the entity has no tenant column or the actor no org
   * @param perActor whether the source reads the actor (a window per actor)
   */
  static WindowId of(String qid, @Nullable String org, boolean perActor, Actor actor) {
    String tenant = org == null ? "-" : PercentEncoding.encode(org);
    if (perActor) {
      String id = actor.id();
      tenant = tenant + "/" + (id == null ? "-" : PercentEncoding.encode(id));
    }
    return new WindowId(qid, tenant);
  }

  /**
   * {@code qid@t:<8 hex>}: the id for a log line, its tenant (an org id, perhaps an actor id: claims) replaced by the
   * first 8 hex of the tenant's SHA-256, so lines about one window still match and no claim is written.
   */
  public String logName() {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256")
          .digest(tenant.getBytes(StandardCharsets.UTF_8));
      return qid + "@t:" + HexFormat.of().formatHex(d, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JVM has SHA-256", e);
    }
  }

  /** {@code qid@tenant}. */
  @Override
  public String toString() {
    return qid + "@" + tenant;
  }
}
