package io.runnel.replicator;

import io.runnel.dsl.Row;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A change's row parts whatever its variant, as its envelope spells them: null ({@code key}, {@code row},
 * {@code old}), empty ({@code omitted}) or false ({@code oversized}) where the variant carries none.
 */
final class Changes {

  private Changes() {}

  static @Nullable String key(ChangeEvent e) {
    return switch (e) {
      case ChangeEvent.Insert i -> i.key();
      case ChangeEvent.Update u -> u.key();
      case ChangeEvent.Delete d -> d.key();
      case ChangeEvent.Truncate t -> null;
    };
  }

  static @Nullable Row row(ChangeEvent e) {
    return switch (e) {
      case ChangeEvent.Insert i -> i.row();
      case ChangeEvent.Update u -> u.row();
      case ChangeEvent.Delete d -> null;
      case ChangeEvent.Truncate t -> null;
    };
  }

  static @Nullable Row old(ChangeEvent e) {
    return switch (e) {
      case ChangeEvent.Insert i -> null;
      case ChangeEvent.Update u -> u.old();
      case ChangeEvent.Delete d -> d.old();
      case ChangeEvent.Truncate t -> null;
    };
  }

  static List<String> omitted(ChangeEvent e) {
    return switch (e) {
      case ChangeEvent.Insert i -> i.omitted();
      case ChangeEvent.Update u -> u.omitted();
      case ChangeEvent.Delete d -> d.omitted();
      case ChangeEvent.Truncate t -> List.of();
    };
  }

  static boolean oversized(ChangeEvent e) {
    return switch (e) {
      case ChangeEvent.Insert i -> i.oversized();
      case ChangeEvent.Update u -> u.oversized();
      case ChangeEvent.Delete d -> d.oversized();
      case ChangeEvent.Truncate t -> false;
    };
  }
}
