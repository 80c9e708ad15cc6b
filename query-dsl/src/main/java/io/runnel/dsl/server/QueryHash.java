package io.runnel.dsl.server;

import io.runnel.dsl.QueryRef;
import io.runnel.wire.CanonicalJson;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The protocol's digests ({@code PROTOCOL.md}, "Cursor" and "Idempotency"), computed on the server only: the
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
