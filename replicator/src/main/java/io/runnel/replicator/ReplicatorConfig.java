package io.runnel.replicator;

import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.Nullable;
import java.util.Map;

/**
 * The replicator's configuration from the environment, validated at boot ({@code docs/replicator.md}):
 * {@code DATABASE_URL}, {@code REPLICATION_URL} (same host, port and database), {@code REPLICATION_SLOT} (default
 * {@code runnel}) and {@code REPLICATION_PUBLICATION} (default {@code runnel}).
 *
 * @param database the database, or null when {@code DATABASE_URL} is unset (the embedded PostgreSQL)
 * @param replication the replication connection's database (defaults to {@code database}), or null when embedded
 * @param slot the replication slot's name
 * @param publication the publication's name
 */
public record ReplicatorConfig(@Nullable DatabaseUrl database, @Nullable DatabaseUrl replication, String slot,
    String publication) {

  /** The default slot and publication name. */
  public static final String DEFAULT_NAME = "runnel";

  /**
   * Validates the names.
   *
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) for a slot or publication name outside
   *     {@code [a-z_][a-z0-9_]*} (at most 63 characters), or a replication URL on another database
   */
  public ReplicatorConfig {
    checkName("REPLICATION_SLOT", slot);
    checkName("REPLICATION_PUBLICATION", publication);
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
        env.getOrDefault("REPLICATION_SLOT", DEFAULT_NAME), env.getOrDefault("REPLICATION_PUBLICATION", DEFAULT_NAME));
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
