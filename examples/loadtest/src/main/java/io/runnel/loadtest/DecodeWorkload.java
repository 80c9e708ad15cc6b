package io.runnel.loadtest;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The decode scenario's workload: row changes on table {@code items} (about 150 bytes a row), in transactions of 1
 * to {@code maxTransaction} rows, a mix of inserts, updates and deletes chosen by a seeded random source, so every
 * run with the same sizes commits the same changes.
 *
 * <p>While fewer than 100 rows are live every change is an insert; after that half are inserts, 30 % updates
 * (status, amount, note and time; never the key) and 20 % deletes, each of a live row picked at random.
 */
public final class DecodeWorkload {

  /** The table's DDL. */
  public static final String DDL = "CREATE TABLE items (id int8 PRIMARY KEY, account int4 NOT NULL,"
      + " status text NOT NULL, amount numeric(12,2) NOT NULL, note text NOT NULL,"
      + " updated_at timestamptz NOT NULL)";

  private static final String[] STATUSES = {"open", "pending", "shipped", "closed", "refunded"};

  /**
   * One row change.
   *
   * @param kind what it does
   * @param id the row's key
   */
  public record Change(Kind kind, long id) {}

  /** What a change does. */
  public enum Kind {
    /** INSERT a new row. */
    INSERT,
    /** UPDATE a live row's non-key columns. */
    UPDATE,
    /** DELETE a live row. */
    DELETE
  }

  private DecodeWorkload() {}

  /**
   * The transactions, {@code changes} row changes in all.
   *
   * @param changes the number of row changes, positive
   * @param maxTransaction the largest transaction, in rows (each is 1 to this many, uniformly)
   * @param seed the random source's seed
   * @throws IllegalArgumentException for a size below 1
   */
  public static List<List<Change>> plan(long changes, int maxTransaction, long seed) {
    if (changes < 1 || maxTransaction < 1) {
      throw new IllegalArgumentException("changes " + changes + " and maxTransaction " + maxTransaction
          + " must be positive");
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Long> live = new ArrayList<>();
    long nextId = 1;
    long left = changes;
    List<List<Change>> out = new ArrayList<>();
    while (left > 0) {
      int size = (int) Math.min(left, 1 + random.nextInt(maxTransaction));
      List<Change> tx = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        int roll = random.nextInt(100);
        if (live.size() < 100 || roll < 50) {
          tx.add(new Change(Kind.INSERT, nextId));
          live.add(nextId++);
        } else if (roll < 80) {
          tx.add(new Change(Kind.UPDATE, live.get(random.nextInt(live.size()))));
        } else {
          int at = random.nextInt(live.size());
          long id = live.get(at);
          live.set(at, live.getLast());
          live.removeLast();
          tx.add(new Change(Kind.DELETE, id));
        }
      }
      out.add(tx);
      left -= size;
    }
    return out;
  }

  /**
   * Commits {@code plan} through {@code c} (autocommit is turned off), one transaction per entry, each change its
   * own statement in a JDBC batch.
   *
   * @throws SQLException when a statement fails
   * @throws IllegalStateException when a change did not touch exactly one row
   */
  public static void commit(Connection c, List<List<Change>> plan) throws SQLException {
    c.setAutoCommit(false);
    SplittableRandom random = new SplittableRandom(7);
    try (PreparedStatement insert = c.prepareStatement(
            "INSERT INTO items (id, account, status, amount, note, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
        PreparedStatement update = c.prepareStatement(
            "UPDATE items SET status = ?, amount = ?, note = ?, updated_at = ? WHERE id = ?");
        PreparedStatement delete = c.prepareStatement("DELETE FROM items WHERE id = ?")) {
      for (List<Change> tx : plan) {
        for (Change ch : tx) {
          PreparedStatement s = switch (ch.kind()) {
            case INSERT -> {
              insert.setLong(1, ch.id());
              insert.setInt(2, random.nextInt(10_000));
              insert.setString(3, STATUSES[random.nextInt(STATUSES.length)]);
              insert.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(1_000_000), 2));
              insert.setString(5, note(random));
              insert.setObject(6, OffsetDateTime.ofInstant(Instant.ofEpochSecond(1_790_000_000L + ch.id()),
                  ZoneOffset.UTC));
              yield insert;
            }
            case UPDATE -> {
              update.setString(1, STATUSES[random.nextInt(STATUSES.length)]);
              update.setBigDecimal(2, BigDecimal.valueOf(random.nextInt(1_000_000), 2));
              update.setString(3, note(random));
              update.setObject(4, OffsetDateTime.ofInstant(Instant.ofEpochSecond(1_790_000_000L
                  + random.nextInt(1_000_000)), ZoneOffset.UTC));
              update.setLong(5, ch.id());
              yield update;
            }
            case DELETE -> {
              delete.setLong(1, ch.id());
              yield delete;
            }
          };
          // One statement at a time keeps the plan's order within the transaction.
          if (s.executeUpdate() != 1) {
            throw new IllegalStateException(ch + " did not touch exactly one row");
          }
        }
        c.commit();
      }
    }
  }

  /** Creates the table and a publication {@code publication} for it. @throws SQLException when refused */
  public static void createSchema(Connection c, String publication) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(DDL);
      s.execute("CREATE PUBLICATION " + publication + " FOR TABLE items");
    }
  }

  /** A note of 80 to 100 printable characters. */
  static String note(SplittableRandom random) {
    int n = 80 + random.nextInt(21);
    char[] chars = new char[n];
    for (int i = 0; i < n; i++) {
      chars[i] = (char) ('a' + random.nextInt(26));
    }
    return new String(chars);
  }
}
