package io.runnel.example;

import io.runnel.wire.ConfigInvalidException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The process's configuration, read from environment variables and validated at boot; a bad value stops the
 * process with {@code X_CONFIG_INVALID} naming the variable and the fix.
 *
 * @param dataDirectory where the embedded PostgreSQL keeps its data ({@code RUNNEL_DATA_DIR}, default
 *     {@code .runnel/pgdata} under the working directory)
 * @param databasePort the embedded PostgreSQL's port ({@code RUNNEL_PG_PORT}, default 0: a free port)
 */
public record AppConfig(Path dataDirectory, int databasePort) {

  /**
   * Reads the configuration.
   *
   * @param env the environment
   * @param workingDirectory the directory relative paths resolve against
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) for a malformed variable
   */
  public static AppConfig fromEnvironment(Map<String, String> env, Path workingDirectory) {
    String dir = env.getOrDefault("RUNNEL_DATA_DIR", ".runnel/pgdata");
    if (dir.isBlank()) {
      throw invalid("RUNNEL_DATA_DIR is empty.", "Unset it for .runnel/pgdata, or name a directory.");
    }
    String portText = env.getOrDefault("RUNNEL_PG_PORT", "0");
    int port;
    try {
      port = Integer.parseInt(portText.trim());
    } catch (NumberFormatException e) {
      throw invalid("RUNNEL_PG_PORT is '" + portText + "', not a port number.", "Set it to 1–65535, or 0 for any free port.");
    }
    if (port < 0 || port > 65535) {
      throw invalid("RUNNEL_PG_PORT is " + port + ", outside 0–65535.", "Set it to 1–65535, or 0 for any free port.");
    }
    if (env.containsKey("DATABASE_URL")) {
      throw invalid("DATABASE_URL is set, but external databases arrive with the example-app issue.",
          "Unset DATABASE_URL to use the embedded PostgreSQL.");
    }
    return new AppConfig(workingDirectory.resolve(dir).normalize(), port);
  }

  private static ConfigInvalidException invalid(String cause, String fix) {
    return new ConfigInvalidException(cause, fix);
  }
}
