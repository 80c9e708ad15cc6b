package io.runnel.dsl.server;

import io.runnel.dsl.DeclarationException;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.ErrorCode;
import java.sql.SQLException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The server-only half of a mutator: its {@link MutatorRef}, its {@link Policy}, its server function, and the
 * assertion that it is idempotent under its key (required: writes are replayed by idempotency key, so a mutator
 * declared otherwise is refused with {@code X_MUTATOR_NOT_IDEMPOTENT}).
 *
 * <pre>{@code
 * Mutator.of(Board.LIKE_POST).policy(Policy.can("feed:like"))
 *     .server((ctx, in) -> ctx.update("update posts set like_count = like_count + 1 where id = ?::uuid", in.postId()))
 * }</pre>
 *
 * @param <I> the input type
 */
public final class Mutator<I> {

  /** The server function: runs inside the call's transaction and returns the answer's {@code result}. */
  @FunctionalInterface
  public interface ServerFunction<I> {
    /**
     * Runs the mutation.
     *
     * @return the result: null, a String, Number, Boolean, {@link io.runnel.wire.JsonValue}, or a Map / List of
     *     those
     * @throws SQLException as the database refuses (serialization failures are retried by the node)
     * @throws MutatorRefusedException for the mutator's own refusal (409/422)
     */
    @Nullable Object run(MutationContext ctx, I input) throws SQLException;
  }

  private final MutatorRef<I> ref;
  private final @Nullable Policy policy;
  private final @Nullable ServerFunction<I> server;
  private final boolean idempotent;
  private final boolean serializable;

  private Mutator(MutatorRef<I> ref, @Nullable Policy policy, @Nullable ServerFunction<I> server, boolean idempotent,
      boolean serializable) {
    this.ref = ref;
    this.policy = policy;
    this.server = server;
    this.idempotent = idempotent;
    this.serializable = serializable;
  }

  /** The server half of {@code ref}: idempotent, with no policy or server function yet. */
  public static <I> Mutator<I> of(MutatorRef<I> ref) {
    return new Mutator<>(Objects.requireNonNull(ref, "ref"), null, null, true, false);
  }

  /** This mutator guarded by {@code policy}. */
  public Mutator<I> policy(Policy policy) {
    return new Mutator<>(ref, Objects.requireNonNull(policy, "policy"), server, idempotent, serializable);
  }

  /** This mutator running {@code server}. */
  public Mutator<I> server(ServerFunction<I> server) {
    return new Mutator<>(ref, policy, Objects.requireNonNull(server, "server"), idempotent, serializable);
  }

  /** This mutator declared idempotent or not; only {@code true} is accepted by {@link Declarations}. */
  public Mutator<I> idempotent(boolean idempotent) {
    return new Mutator<>(ref, policy, server, idempotent, serializable);
  }

  /**
   * This mutator running at {@code SERIALIZABLE} isolation (default: {@code READ COMMITTED}). A call that
   * PostgreSQL aborts with a serialization failure ({@code 40001}) or a deadlock ({@code 40P01}) is run again, a
   * bounded number of times with jitter, at either level.
   */
  public Mutator<I> serializable() {
    return new Mutator<>(ref, policy, server, idempotent, true);
  }

  /** Whether the mutator runs at {@code SERIALIZABLE} isolation. */
  public boolean runsSerializable() {
    return serializable;
  }

  /** The client-safe half. */
  public MutatorRef<I> ref() {
    return ref;
  }

  /** The mutator's name. */
  public String name() {
    return ref.name();
  }

  /** Whether the mutator is declared idempotent. */
  public boolean idempotent() {
    return idempotent;
  }

  /** The policy. @throws DeclarationException when none was declared */
  public Policy policy() {
    if (policy == null) {
      throw new DeclarationException(ErrorCode.X_MUTATOR_DECLARATION_INVALID,
          "Mutator '" + ref.name() + "' has no policy.", "Declare one with .policy(...).");
    }
    return policy;
  }

  /** The server function. @throws DeclarationException when none was declared */
  public ServerFunction<I> server() {
    if (server == null) {
      throw new DeclarationException(ErrorCode.X_MUTATOR_DECLARATION_INVALID,
          "Mutator '" + ref.name() + "' has no server function.", "Declare it with .server((ctx, in) -> …).");
    }
    return server;
  }

  void validate() {
    if (!idempotent) {
      throw new DeclarationException(ErrorCode.X_MUTATOR_NOT_IDEMPOTENT,
          "Mutator '" + ref.name() + "' is declared not idempotent.",
          "Make its effect safe to replay under its idempotency key and declare .idempotent(true).");
    }
    policy();
    server();
  }

  @Override
  public String toString() {
    return "Mutator[" + ref.name() + " " + policy + "]";
  }
}
