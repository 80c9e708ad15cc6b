package io.runnel.sync.live.internal;

import io.runnel.dsl.Filter;

/** Small questions about a bound filter. */
final class Filters {

  private Filters() {}

  /** Whether {@code filter} reads {@code column} anywhere. */
  static boolean reads(Filter filter, String column) {
    return switch (filter) {
      case Filter.Compare c -> c.column().equals(column);
      case Filter.In in -> in.column().equals(column);
      case Filter.IsNull n -> n.column().equals(column);
      case Filter.Like l -> l.column().equals(column);
      case Filter.Not n -> reads(n.filter(), column);
      case Filter.And a -> a.filters().stream().anyMatch(f -> reads(f, column));
    };
  }
}
