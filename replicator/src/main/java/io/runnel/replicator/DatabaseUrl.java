package io.runnel.replicator;

import io.runnel.wire.ConfigInvalidException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Where a PostgreSQL database is and how to sign in: parsed from {@code postgres://user:password@host:port/db?…}
 * (libpq's URI form) or {@code jdbc:postgresql://host:port/db?user=…&password=…}, and turned into a pgjdbc URL with
 * properties.
 *
 * @param host the host name or address
 * @param port the TCP port (5432 when the URL names none)
 * @param database the database name
 * @param user the user, or null for pgjdbc's default
 * @param password the password, or null
 * @param parameters other query parameters, passed to pgjdbc as properties
 */
public record DatabaseUrl(String host, int port, String database, @Nullable String user, @Nullable String password,
    Map<String, String> parameters) {

  /** Copies the parameters. */
  public DatabaseUrl {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(database, "database");
    parameters = Map.copyOf(parameters);
  }

  /**
   * Parses {@code url}; {@code variable} names where it came from, for the error.
   *
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) naming the variable when the URL is malformed
   */
  public static DatabaseUrl parse(String variable, String url) {
    String u = url.trim();
    String rest;
    if (u.startsWith("jdbc:postgresql://")) {
      rest = u.substring("jdbc:".length());
    } else if (u.startsWith("postgres://") || u.startsWith("postgresql://")) {
      rest = u;
    } else {
      throw invalid(variable, "does not start with postgres://, postgresql:// or jdbc:postgresql://");
    }
    URI uri;
    try {
      uri = new URI(rest);
    } catch (URISyntaxException e) {
      throw invalid(variable, "is not a URL: " + e.getReason());
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw invalid(variable, "names no host");
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    String database = path.startsWith("/") ? path.substring(1) : path;
    if (database.isEmpty() || database.contains("/")) {
      throw invalid(variable, "names no database (…/dbname)");
    }
    String user = null;
    String password = null;
    if (uri.getRawUserInfo() != null) {
      String[] parts = uri.getRawUserInfo().split(":", 2);
      user = decode(parts[0]);
      password = parts.length > 1 ? decode(parts[1]) : null;
    }
    Map<String, String> params = new LinkedHashMap<>();
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        String[] kv = pair.split("=", 2);
        String k = decode(kv[0]);
        String v = kv.length > 1 ? decode(kv[1]) : "";
        switch (k) {
          case "user" -> user = v;
          case "password" -> password = v;
          default -> params.put(k, v);
        }
      }
    }
    return new DatabaseUrl(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), decode(database), user, password,
        params);
  }

  /** The pgjdbc URL, without credentials ({@link #properties()} carries them). */
  public String jdbcUrl() {
    String h = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    return "jdbc:postgresql://" + h + ":" + port + "/" + database;
  }

  /** pgjdbc properties: user, password and the other parameters. */
  public Properties properties() {
    Properties p = new Properties();
    parameters.forEach(p::setProperty);
    if (user != null) {
      p.setProperty("user", user);
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    return p;
  }

  /** Whether {@code other} names the same server and database (credentials may differ). */
  public boolean sameDatabaseAs(DatabaseUrl other) {
    return host.equalsIgnoreCase(other.host) && port == other.port && database.equals(other.database);
  }

  @Override
  public String toString() {
    return "postgres://" + (user == null ? "" : user + "@") + host + ":" + port + "/" + database;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static ConfigInvalidException invalid(String variable, String problem) {
    return new ConfigInvalidException(variable + " " + problem + ".",
        "Set " + variable + " to postgres://user:password@host:5432/database.");
  }
}
