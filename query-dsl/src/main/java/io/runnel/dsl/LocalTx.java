package io.runnel.dsl;

import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What a mutator's local twin may do to the page's records: read, insert, update and delete records by type and
 * key. The client runs the twin against its overlay; tests run it against a plain map. A twin must be pure (it
 * reads only through this API and its input) so that re-running it over newer server truth is safe.
 */
public interface LocalTx {

  /**
   * Who the write is made as, as the page knows it: the id the node's {@code hello} answer named for this page (or
   * the one remembered from the page's last connection, while offline), with the org the app gave the client at
   * connect ({@code orgId}); {@link Actor#anonymous()} while no actor is known yet. It carries no roles or
   * permissions: the node decides every write, so a twin uses the actor only to shape its optimistic rows (an
   * author column, the actor's own like), never to decide whether the write is allowed.
   */
  Actor actor();

  /** The record of {@code type} with {@code key} as the page sees it now (truth plus overlay), or null. */
  @Nullable Row get(EntityRef type, String key);

  /**
   * Inserts (or replaces) a record; its key is read from the row's key columns.
   *
   * @throws IllegalArgumentException when a key column is missing or NULL
   */
  void insert(EntityRef type, Row row);

  /**
   * Replaces the record with {@code change} applied to it; does nothing when the page holds no such record.
   * The change's result is merged over the record column by column.
   */
  void update(EntityRef type, String key, UnaryOperator<Row> change);

  /** Deletes the record; does nothing when the page holds no such record. */
  void delete(EntityRef type, String key);
}
