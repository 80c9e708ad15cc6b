package io.runnel.example;

import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.Row;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** Records by type and key, as a twin sees them through {@link LocalTx}: the JVM stand-in for the page's overlay. */
final class MapTx implements LocalTx {

  final Map<String, Row> rows = new LinkedHashMap<>();
  private final Actor actor;

  /** A transaction made as {@code actor}. */
  MapTx(Actor actor) {
    this.actor = actor;
  }

  @Override
  public Actor actor() {
    return actor;
  }

  /** Puts {@code row} as truth before a twin runs. */
  MapTx with(EntityRef type, Row row) {
    insert(type, row);
    return this;
  }

  @Override
  public @Nullable Row get(EntityRef type, String key) {
    return rows.get(type.name() + ":" + key);
  }

  @Override
  public void insert(EntityRef type, Row row) {
    rows.put(type.name() + ":" + type.keyOf(row), row);
  }

  @Override
  public void update(EntityRef type, String key, UnaryOperator<Row> change) {
    Row r = get(type, key);
    if (r != null) {
      rows.put(type.name() + ":" + key, r.merge(change.apply(r)));
    }
  }

  @Override
  public void delete(EntityRef type, String key) {
    rows.remove(type.name() + ":" + key);
  }
}
