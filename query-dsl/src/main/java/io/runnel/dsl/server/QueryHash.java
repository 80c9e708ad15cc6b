package io.runnel.dsl.server;

import io.runnel.dsl.QueryRef;
import io.runnel.wire.CanonicalJson;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The protocol's digests ({@code docs/protocol.md}, "Cursor" and "Idempotency"), computed on the server only: the
 * browser has no {@code MessageDigest} and only compares what the server sent.
 */
public final class QueryHash {

  private QueryHash() {}

  /** {@code <name>:<first 16 hex of SHA-256 over the RFC 8785 canonical JSON of the input>}. */
  public static <I> String of(QueryRef<I> query, I input) {
    return of(query.name(), query.codec().encode(input));
  }

  /** {@code <name>:<first 16 hex of SHA-256 over the RFC 8785 canonical JSON of input>}. */
  public static String of(String name, JsonValue input) {
    return name + ":" + sha256Hex(CanonicalJson.write(input)).substring(0, 16);
  }

  /**
   * The write digest ({@code docs/protocol.md}, "Idempotency"): the first 32 hex of SHA-256 over the actor id, a
   * newline and the idempotency key. It names a write in {@code patch.writes} without revealing the key.
   *
   * @param actorId the actor's id; the empty string for an anonymous actor
   * @param key the idempotency key
   */
  public static String writeDigest(String actorId, String key) {
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(key, "key");
    return sha256Hex(actorId + "\n" + key).substring(0, 32);
  }

  /**
   * The input hash of a mutator call ({@code docs/protocol.md}, "Idempotency"): the lower-case hex SHA-256 over the
   * mutator's name, a newline and the RFC 8785 canonical JSON of the input (64 characters). A replayed key with
   * another hash is {@code X_IDEMPOTENCY_KEY_REUSED}.
   */
  public static String inputHash(String mutator, JsonValue input) {
    Objects.requireNonNull(mutator, "mutator");
    return sha256Hex(mutator + "\n" + CanonicalJson.write(Objects.requireNonNull(input, "input")));
  }

  /** The lower-case hex SHA-256 of {@code text}'s UTF-8 bytes (64 characters). */
  public static String sha256Hex(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(64);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("The JDK lacks SHA-256, which every JDK must provide", e);
    }
  }
}
