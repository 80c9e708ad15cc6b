package io.runnel.sync;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** Connection pools of the node tests: the superuser of a test database, as the node's pool. */
final class TestPools {

  private TestPools() {}

  /** A pool of at most {@code size} connections to {@code jdbcUrl} as {@code postgres}. */
  static HikariDataSource of(String jdbcUrl, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername("postgres");
    config.setPassword("postgres");
    config.setMaximumPoolSize(size);
    return new HikariDataSource(config);
  }
}
