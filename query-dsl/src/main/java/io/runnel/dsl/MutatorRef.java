package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonValue;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The client-safe half of a mutator: its name, the input's JSON codec, an optional pure local twin that the
 * browser runs into its optimistic overlay, and the {@link Conflict} policy. The client never references the
 * server half ({@link io.runnel.dsl.server.Mutator}).
 *
 * <pre>{@code
 * static final MutatorRef<LikeInput> LIKE_POST = MutatorRef.of("likePost", LikeInput.CODEC)
 *     .local((tx, in) -> tx.update(POSTS, in.postId(), post -> post.plus("like_count", 1)))
 *     .conflict(Conflict.SERVER_WINS);
 * }</pre>
 *
 * @param <I> the input type
 */
public final class MutatorRef<I> {

  /** A mutator's local twin: pure, convergent where it can be (applying it twice equals once). */
  @FunctionalInterface
  public interface LocalMutation<I> {
    /** Applies the mutation to the page's records through {@code tx}. */
    void apply(LocalTx tx, I input);
  }

  private final String name;
  private final JsonCodec<I> codec;
  private final @Nullable LocalMutation<I> local;
  private final Conflict conflict;

  private MutatorRef(String name, JsonCodec<I> codec, @Nullable LocalMutation<I> local, Conflict conflict) {
    this.name = name;
    this.codec = codec;
    this.local = local;
    this.conflict = conflict;
  }

  /**
   * A mutator named {@code name} (as {@code POST /v1/mutate/{name}} gives it) with no twin, server-wins.
   *
   * @throws DeclarationException ({@code X_MUTATOR_DECLARATION_INVALID}) for a bad name
   */
  public static <I> MutatorRef<I> of(String name, JsonCodec<I> codec) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(codec, "codec");
    if (!Names.isName(name)) {
      throw new DeclarationException(ErrorCode.X_MUTATOR_DECLARATION_INVALID,
          "Mutator name '" + name + "' is not a valid name.",
          "Use letters, digits and underscores, starting with a letter, at most 64 characters.");
    }
    return new MutatorRef<>(name, codec, null, Conflict.SERVER_WINS);
  }

  /** This mutator with a local twin. */
  public MutatorRef<I> local(LocalMutation<I> twin) {
    return new MutatorRef<>(name, codec, Objects.requireNonNull(twin, "twin"), conflict);
  }

  /** This mutator with conflict policy {@code conflict}. */
  public MutatorRef<I> conflict(Conflict conflict) {
    return new MutatorRef<>(name, codec, local, Objects.requireNonNull(conflict, "conflict"));
  }

  /** The mutator's name. */
  public String name() {
    return name;
  }

  /** The input's JSON codec. */
  public JsonCodec<I> codec() {
    return codec;
  }

  /** The local twin, or null when writes go straight to HTTP with no optimistic overlay. */
  public @Nullable LocalMutation<I> local() {
    return local;
  }

  /** The conflict policy. */
  public Conflict conflict() {
    return conflict;
  }

  /**
   * Decodes and validates an input: size limits first, then the codec.
   *
   * @throws io.runnel.wire.InputInvalidException naming the field path
   */
  public I decodeInput(JsonValue json, JsonLimits limits) {
    limits.check(json);
    return codec.decode(json);
  }

  @Override
  public String toString() {
    return "MutatorRef[" + name + (local == null ? "" : " with twin") + "]";
  }
}
