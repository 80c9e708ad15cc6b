package io.runnel.client.outbox.internal;

import io.runnel.dsl.MutatorRef;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonValue;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The app's mutator refs by name, as its bundle registers them: a call made by name from JavaScript, or an outbox
 * entry read back after a reload, finds its codec and local twin here. A name with no ref still works: it goes
 * straight to HTTP with no optimistic overlay.
 */
public final class MutatorRegistry {

  private final Map<String, MutatorRef<?>> refs = new HashMap<>();

  private MutatorRegistry() {}

  /** An empty registry. */
  public static MutatorRegistry create() {
    return new MutatorRegistry();
  }

  /** Registers {@code ref} under its name, replacing an earlier ref of that name. */
  public MutatorRegistry register(MutatorRef<?> ref) {
    Objects.requireNonNull(ref, "ref");
    refs.put(ref.name(), ref);
    return this;
  }

  /** The ref named {@code name}, or null. */
  public @Nullable MutatorRef<?> find(String name) {
    return refs.get(Objects.requireNonNull(name, "name"));
  }

  /**
   * The ref named {@code name}, or a twin-less ref whose input is any JSON when none is registered.
   *
   * @throws io.runnel.dsl.DeclarationException when {@code name} is not a valid mutator name
   */
  MutatorRef<?> findOrPlain(String name) {
    MutatorRef<?> ref = refs.get(name);
    return ref != null ? ref : plain(name);
  }

  /** A twin-less ref named {@code name} that passes its input through as JSON. */
  static MutatorRef<JsonValue> plain(String name) {
    return MutatorRef.of(name, JsonCodec.any());
  }
}
