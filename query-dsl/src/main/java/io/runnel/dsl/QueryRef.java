package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonValue;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The client-safe half of a query: a name, a typed input with its JSON codec, whether it is live, and a source
 * that builds a {@link Select} from the input (and optionally the actor). No SQL, so the browser can run the
 * select to place optimistic records.
 *
 * <pre>{@code
 * static final QueryRef<FeedInput> LIVE_FEED = QueryRef.live("liveFeed", FeedInput.CODEC,
 *     in -> select(POSTS).where(eq("org_id", in.orgId())).orderBy(desc("created_at")).limit(50));
 * static final QueryRef<NoInput> MY_LIKES = QueryRef.live("myLikes", NoInput.CODEC,
 *     (in, actor) -> select(LIKES).where(eq("user_id", actor.id())));   // a window per actor
 * }</pre>
 *
 * @param <I> the input type
 */
public final class QueryRef<I> {

  private final String name;
  private final JsonCodec<I> codec;
  private final boolean live;
  private final boolean readsActor;
  private final BiFunction<I, Actor, Select> source;

  private QueryRef(String name, JsonCodec<I> codec, boolean live, boolean readsActor,
      BiFunction<I, Actor, Select> source) {
    this.name = name;
    this.codec = codec;
    this.live = live;
    this.readsActor = readsActor;
    this.source = source;
  }

  /**
   * A live query whose select depends on the input only: one window per input and tenant.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) for a bad name
   */
  public static <I> QueryRef<I> live(String name, JsonCodec<I> codec, Function<I, Select> source) {
    Objects.requireNonNull(source, "source");
    return create(name, codec, true, false, (in, actor) -> source.apply(in));
  }

  /**
   * A live query whose select reads the actor (its id): one window per input and actor.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) for a bad name
   */
  public static <I> QueryRef<I> live(String name, JsonCodec<I> codec, BiFunction<I, Actor, Select> source) {
    return create(name, codec, true, true, source);
  }

  /**
   * A one-shot query (read over HTTP, never subscribed) whose select depends on the input only.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) for a bad name
   */
  public static <I> QueryRef<I> once(String name, JsonCodec<I> codec, Function<I, Select> source) {
    Objects.requireNonNull(source, "source");
    return create(name, codec, false, false, (in, actor) -> source.apply(in));
  }

  /**
   * A one-shot query whose select reads the actor.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) for a bad name
   */
  public static <I> QueryRef<I> once(String name, JsonCodec<I> codec, BiFunction<I, Actor, Select> source) {
    return create(name, codec, false, true, source);
  }

  private static <I> QueryRef<I> create(String name, JsonCodec<I> codec, boolean live, boolean readsActor,
      BiFunction<I, Actor, Select> source) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(codec, "codec");
    Objects.requireNonNull(source, "source");
    if (!Names.isName(name)) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "Query name '" + name + "' is not a valid name.",
          "Use letters, digits and underscores, starting with a letter, at most 64 characters.");
    }
    return new QueryRef<>(name, codec, live, readsActor, source);
  }

  /** The query's name, as {@code sub} frames and {@code /v1/query/{name}} give it. */
  public String name() {
    return name;
  }

  /** The input's JSON codec. */
  public JsonCodec<I> codec() {
    return codec;
  }

  /** Whether clients may subscribe to it (otherwise it is read once over HTTP). */
  public boolean live() {
    return live;
  }

  /** Whether the source reads the actor, making a window per actor. */
  public boolean readsActor() {
    return readsActor;
  }

  /**
   * Decodes and validates an input: size limits first, then the codec.
   *
   * @throws io.runnel.wire.InputInvalidException naming the field path of a missing, unknown, mistyped, too deep
   *     or too large field
   */
  public I decodeInput(JsonValue json, JsonLimits limits) {
    limits.check(json);
    return codec.decode(json);
  }

  /**
   * The select for {@code input} as {@code actor} asks.
   *
   * @throws io.runnel.wire.RunnelException as the source throws (for example {@code X_INPUT_INVALID} when a value
   *     does not fit its column)
   */
  public Select select(I input, Actor actor) {
    Select s = source.apply(Objects.requireNonNull(input, "input"), Objects.requireNonNull(actor, "actor"));
    if (s == null) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "The source of query '" + name + "' returned no select.", "Return select(ENTITY)… from the source.");
    }
    return s;
  }

  @Override
  public String toString() {
    return "QueryRef[" + name + (live ? " live" : " once") + (readsActor ? " per actor" : "") + "]";
  }
}
