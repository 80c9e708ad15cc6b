package io.runnel.replicator;

import io.runnel.wire.ConfigInvalidException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The replicator's configuration from the environment, validated at boot ({@code docs/replicator.md}):
 * {@code DATABASE_URL}, {@code REPLICATION_URL} (same host, port and database), {@code REPLICATION_SLOT} (default
 * {@code runnel}), {@code REPLICATION_PUBLICATION} (default {@code runnel}) and {@code RUNNEL_WAL_SAFE_MIN_BYTES}
 * (default 1 GiB).
 *
 * @param database the database, or null when {@code DATABASE_URL} is unset (the embedded PostgreSQL)
 * @param replication the replication connection's database (defaults to {@code database}), or null when embedded
 * @param slot the replication slot's name
 * @param publication the publication's name
 * @param walSafeMinBytes the least WAL the slot must still be able to take before PostgreSQL may invalidate it
 *     ({@link Replicator.Builder#walSafeMinBytes})
 */
public record ReplicatorConfig(@Nullable DatabaseUrl database, @Nullable DatabaseUrl replication, String slot,
    String publication, long walSafeMinBytes) {

  /** The configuration with the default minimum of safe WAL. */
  public ReplicatorConfig(@Nullable DatabaseUrl database, @Nullable DatabaseUrl replication, String slot,
      String publication) {
    this(database, replication, slot, publication, Replicator.DEFAULT_WAL_SAFE_MIN_BYTES);
  }

  /** The default slot and publication name. */
  public static final String DEFAULT_NAME = "runnel";

  /**
   * Validates the names.
   *
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) for a slot or publication name outside
   *     {@code [a-z_][a-z0-9_]*} (at most 63 characters), a replication URL on another database, or a negative
   *     minimum of safe WAL
   */
  public ReplicatorConfig {
    checkName("REPLICATION_SLOT", slot);
    checkName("REPLICATION_PUBLICATION", publication);
    if (walSafeMinBytes < 0) {
      throw new ConfigInvalidException("RUNNEL_WAL_SAFE_MIN_BYTES is " + walSafeMinBytes + ", below 0.",
          "Set it to a number of bytes (for example 1073741824 for 1 GiB), or unset it for 1 GiB.");
    }
    if (database != null && replication != null && !replication.sameDatabaseAs(database)) {
      throw new ConfigInvalidException(
          "REPLICATION_URL names " + replication + " but DATABASE_URL names " + database + ".",
          "Point REPLICATION_URL at the same host, port and database as DATABASE_URL (it may use another user).");
    }
  }

  /**
   * Reads the environment.
   *
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) naming the variable at fault
   */
  public static ReplicatorConfig fromEnvironment(Map<String, String> env) {
    String databaseUrl = blankToNull(env.get("DATABASE_URL"));
    String replicationUrl = blankToNull(env.get("REPLICATION_URL"));
    if (databaseUrl == null && replicationUrl != null) {
      throw new ConfigInvalidException("REPLICATION_URL is set but DATABASE_URL is not.",
          "Set DATABASE_URL too, or unset both to run on the embedded PostgreSQL.");
    }
    DatabaseUrl database = databaseUrl == null ? null : DatabaseUrl.parse("DATABASE_URL", databaseUrl);
    DatabaseUrl replication = replicationUrl == null ? database : DatabaseUrl.parse("REPLICATION_URL", replicationUrl);
    return new ReplicatorConfig(database, replication,
        env.getOrDefault("REPLICATION_SLOT", DEFAULT_NAME), env.getOrDefault("REPLICATION_PUBLICATION", DEFAULT_NAME),
        walSafeMinBytes(env.get("RUNNEL_WAL_SAFE_MIN_BYTES")));
  }

  private static long walSafeMinBytes(@Nullable String text) {
    if (text == null || text.isBlank()) {
      return Replicator.DEFAULT_WAL_SAFE_MIN_BYTES;
    }
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new ConfigInvalidException("RUNNEL_WAL_SAFE_MIN_BYTES is '" + text + "', not a whole number of bytes.",
          "Set it to a number of bytes (for example 1073741824 for 1 GiB), or unset it for 1 GiB.");
    }
  }

  private static void checkName(String variable, String name) {
    if (name == null || !name.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new ConfigInvalidException(
          variable + " is '" + name + "', which is not a valid name.",
          "Use lower-case letters, digits and underscores, starting with a letter or underscore ([a-z_][a-z0-9_]*), "
              + "at most 63 characters.");
    }
  }

  private static @Nullable String blankToNull(@Nullable String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
