package io.runnel.dsl;

import static io.runnel.dsl.Filter.eq;
import static io.runnel.dsl.Filter.gt;
import static io.runnel.dsl.Filter.in;
import static io.runnel.dsl.Filter.isNull;
import static io.runnel.dsl.Filter.like;
import static io.runnel.dsl.Order.asc;
import static io.runnel.dsl.Select.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Mutator;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.RunnelException;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every bad declaration and bad input is refused with its code, and the message names what is at fault. */
class DeclarationRefusalTest {

  static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.uuid("id").text("org_id").text("title").int4("likes").jsonb("meta").textArray("tags"));

  record OrgInput(String orgId) {
    static final JsonCodec<OrgInput> CODEC = JsonCodec.object(r -> new OrgInput(r.text("orgId")),
        (in, w) -> w.put("orgId", in.orgId()));
  }

  static final QueryRef<OrgInput> FEED = QueryRef.live("feed", OrgInput.CODEC,
      in -> select(POSTS).where(eq("org_id", in.orgId())));

  static final MutatorRef<OrgInput> TOUCH = MutatorRef.of("touch", OrgInput.CODEC);

  private static RunnelException refused(ErrorCode code, String mentions, Executable declaration) {
    RunnelException e = assertThrows(RunnelException.class, declaration);
    assertAll(
        () -> assertEquals(code, e.code(), "code of: " + e.getMessage()),
        () -> assertTrue(e.cause().contains(mentions), "the cause names '" + mentions + "': " + e.cause()),
        () -> assertTrue(!e.fix().isBlank(), "a fix is given"));
    return e;
  }

  @Test
  void entityDeclarationsAreCheckedAsTheyAreBuilt() {
    ErrorCode bad = ErrorCode.X_ENTITY_DECLARATION_INVALID;
    assertAll(
        () -> refused(bad, "9posts", () -> EntityRef.of("9posts")),
        () -> refused(bad, "no key", () -> EntityRef.of("p").columns(c -> c.uuid("id"))),
        () -> refused(bad, "no columns", () -> EntityRef.of("p").key("id").columns(c -> { })),
        () -> refused(bad, "'missing'", () -> EntityRef.of("p").key("missing").columns(c -> c.uuid("id"))),
        () -> refused(bad, "'id'", () -> EntityRef.of("p").key("id", "id").columns(c -> c.uuid("id"))),
        () -> refused(bad, "jsonb", () -> EntityRef.of("p").key("doc").columns(c -> c.jsonb("doc"))),
        () -> refused(bad, "'id'", () -> EntityRef.of("p").key("id").columns(c -> c.uuid("id").text("id"))),
        () -> refused(bad, "'bad name'", () -> EntityRef.of("p").key("id").columns(c -> c.uuid("id").text("bad name"))),
        () -> refused(bad, "'public.'", () -> Entity.of(POSTS).table("public.")),
        () -> refused(bad, "'org'", () -> Entity.of(POSTS).tenant("org")),
        () -> refused(bad, "'meta'", () -> Entity.of(POSTS).tenant("meta")));
  }

  @Test
  void selectsRefuseUnknownColumnsAndOperatorsTheTypeLacks() {
    ErrorCode bad = ErrorCode.X_QUERY_DECLARATION_INVALID;
    assertAll(
        () -> refused(bad, "'author'", () -> select(POSTS).where(eq("author", "x"))),
        () -> refused(bad, "'meta'", () -> select(POSTS).where(eq("meta", "{}"))),
        () -> refused(bad, "'tags'", () -> select(POSTS).where(gt("tags", "{a}"))),
        () -> refused(bad, "'likes'", () -> select(POSTS).where(like("likes", "1%"))),
        () -> refused(bad, "'meta'", () -> select(POSTS).orderBy(asc("meta"))),
        () -> refused(bad, "twice", () -> select(POSTS).orderBy(asc("title"), asc("title"))),
        () -> refused(bad, "'Feed!'", () -> QueryRef.live("Feed!", OrgInput.CODEC, in -> select(POSTS))));
  }

  private static void inputRefused(String path, String mentions, Executable select) {
    InputInvalidException e = assertThrows(InputInvalidException.class, select);
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code(), "code of: " + e.getMessage()),
        () -> assertEquals(422, e.code().httpStatus()),
        () -> assertEquals(path, e.path(), "the path names the column"),
        () -> assertTrue(e.cause().contains(mentions), "the cause names '" + mentions + "': " + e.cause()),
        () -> assertTrue(!e.fix().isBlank(), "a fix is given"));
  }

  @Test
  void aValueThatDoesNotFitItsColumnIsAnInputErrorNamingTheColumn() {
    assertAll(
        () -> inputRefused("posts.id", "not-a-uuid", () -> select(POSTS).where(eq("id", "not-a-uuid"))),
        () -> inputRefused("posts.likes", "many", () -> select(POSTS).where(eq("likes", "many"))),
        () -> inputRefused("posts.likes", "3000000000", () -> select(POSTS).where(eq("likes", 3_000_000_000L))),
        () -> inputRefused("posts.title", "Integer", () -> select(POSTS).where(eq("title", 7))),
        () -> inputRefused("posts.likes", "many", () -> select(POSTS).where(in("likes", List.of(1, "many")))));
  }

  /** Values come from the request's input, so a bad one is the request's error (422), not the app's (500). */
  @Test
  void valueLevelProblemsInASelectAreInputErrorsNotDeclarationErrors() {
    assertAll(
        () -> inputRefused("posts.likes", "0 values", () -> select(POSTS).where(in("likes", List.of()))),
        () -> inputRefused("posts.likes", "101 values",
            () -> select(POSTS).where(in("likes", Collections.nCopies(101, 1)))),
        () -> inputRefused("posts.title", "escape", () -> select(POSTS).where(like("title", "50\\"))),
        () -> inputRefused("posts.title", "escape",
            () -> select(POSTS).where(Filter.not(Filter.ilike("title", "\\\\\\")))),
        () -> inputRefused("posts.limit", "0", () -> select(POSTS).limit(0)),
        () -> inputRefused("posts.limit", "10001", () -> select(POSTS).limit(10_001)),
        () -> inputRefused("posts.limit", "-1", () -> select(POSTS).where(eq("likes", 1)).limit(-1)));
  }

  @Test
  void queriesAndMutatorsWithoutTheirPartsAreRefusedByTheRegistry() {
    Entity posts = Entity.of(POSTS);
    assertAll(
        () -> refused(ErrorCode.X_QUERY_DECLARATION_INVALID, "no policy",
            () -> Declarations.builder().query(Query.of(FEED).on(posts))),
        () -> refused(ErrorCode.X_QUERY_DECLARATION_INVALID, "names no entity",
            () -> Declarations.builder().query(Query.of(FEED).policy(Policy.allowPublic()))),
        () -> refused(ErrorCode.X_MUTATOR_DECLARATION_INVALID, "no policy",
            () -> Declarations.builder().mutator(Mutator.of(TOUCH).server((ctx, in) -> null))),
        () -> refused(ErrorCode.X_MUTATOR_DECLARATION_INVALID, "no server function",
            () -> Declarations.builder().mutator(Mutator.of(TOUCH).policy(Policy.authenticated()))),
        () -> refused(ErrorCode.X_MUTATOR_NOT_IDEMPOTENT, "'touch'",
            () -> Declarations.builder().mutator(Mutator.of(TOUCH).policy(Policy.authenticated())
                .server((ctx, in) -> null).idempotent(false))),
        () -> refused(ErrorCode.X_MUTATOR_DECLARATION_INVALID, "'touch me'",
            () -> MutatorRef.of("touch me", OrgInput.CODEC)));
  }

  @Test
  void aDuplicateNameIsRefused() {
    Query<OrgInput> q = Query.of(FEED).on(Entity.of(POSTS)).policy(Policy.allowPublic());
    Declarations.Builder b = Declarations.builder().query(q);
    refused(ErrorCode.X_DECLARATION_DUPLICATE, "'feed'", () -> b.query(q));
  }

  @Test
  void anEntityIsDeclaredOncePerRecordTypeAndPerTable() {
    Entity posts = Entity.of(POSTS).table("public.posts").tenant("org_id");
    QueryRef<OrgInput> other = QueryRef.live("other", OrgInput.CODEC, in -> select(POSTS));
    EntityRef archived = EntityRef.of("archived").key("id").columns(c -> c.uuid("id").text("org_id"));
    QueryRef<OrgInput> archive = QueryRef.live("archive", OrgInput.CODEC, in -> select(archived));
    ChannelRef org = ChannelRef.of("org", "orgId").catchUp(FEED);
    ErrorCode dup = ErrorCode.X_DECLARATION_DUPLICATE;
    assertAll(
        () -> refused(dup, "'posts'", () -> Declarations.builder()
            .query(Query.of(FEED).on(posts).policy(Policy.allowPublic()))
            .query(Query.of(other).on(Entity.of(POSTS).table("public.posts")).policy(Policy.allowPublic()))),
        () -> refused(dup, "'posts'", () -> Declarations.builder()
            .query(Query.of(FEED).on(posts).policy(Policy.allowPublic()))
            .channel(Channel.of(org).records(Entity.of(POSTS).table("app.posts"), "org_id")
                .policy(Policy.memberOfParam("orgId")))),
        () -> refused(dup, "'public.posts'", () -> Declarations.builder()
            .query(Query.of(FEED).on(posts).policy(Policy.allowPublic()))
            .query(Query.of(archive).on(Entity.of(archived).table("public.posts")).policy(Policy.allowPublic()))),
        () -> refused(dup, "'posts'", () -> Declarations.builder()
            .query(Query.of(FEED).on(posts).policy(Policy.allowPublic()))
            .query(Query.of(other).on(Entity.of(EntityRef.of("posts").key("id").columns(c -> c.uuid("id")))
                .table("public.posts").tenant("id")).policy(Policy.allowPublic()))));
  }

  @Test
  void entitiesListsEveryEntityOnceInDeclarationOrder() {
    Entity posts = Entity.of(POSTS).tenant("org_id");
    EntityRef likesRef = EntityRef.of("likes").key("post_id").columns(c -> c.uuid("post_id").text("org_id"));
    Entity likes = Entity.of(likesRef);
    QueryRef<OrgInput> other = QueryRef.live("other", OrgInput.CODEC, in -> select(POSTS));
    QueryRef<OrgInput> likesQuery = QueryRef.live("likes", OrgInput.CODEC, in -> select(likesRef));
    Declarations d = Declarations.builder()
        .query(Query.of(FEED).on(posts).policy(Policy.allowPublic()))
        .query(Query.of(other).on(Entity.of(POSTS).tenant("org_id")).policy(Policy.allowPublic()))
        .channel(Channel.of(ChannelRef.of("org", "orgId").catchUp(FEED)).records(likes, "org_id").records(posts,
            "org_id").policy(Policy.memberOfParam("orgId")))
        .query(Query.of(likesQuery).on(likes).policy(Policy.allowPublic()))
        .build();
    assertAll(
        () -> assertEquals(List.of(posts, likes), List.copyOf(d.entities()),
            "distinct, in the order first declared; an equal second Entity.of(POSTS) is the same declaration"),
        () -> assertTrue(d.entities().iterator().next() == posts, "the first declaration is the one kept"));
  }

  @Test
  void aSourceSelectingFromAnotherEntityIsRefusedWhenItRuns() {
    EntityRef other = EntityRef.of("other").key("id").columns(c -> c.uuid("id").text("org_id"));
    QueryRef<OrgInput> wrong = QueryRef.live("wrong", OrgInput.CODEC, in -> select(other));
    Query<OrgInput> q = Query.of(wrong).on(Entity.of(POSTS)).policy(Policy.allowPublic());
    refused(ErrorCode.X_QUERY_DECLARATION_INVALID, "'other'", () -> q.select(new OrgInput("a"), Actor.anonymous()));
  }

  @Test
  void channelDeclarationsAreChecked() {
    ErrorCode bad = ErrorCode.X_CHANNEL_DECLARATION_INVALID;
    ChannelRef org = ChannelRef.of("org", "orgId");
    Entity posts = Entity.of(POSTS);
    assertAll(
        () -> refused(bad, "'Org'", () -> ChannelRef.of("Org", "orgId")),
        () -> refused(bad, "'org.x'", () -> ChannelRef.of("org.x")),
        () -> refused(bad, "'orgId'", () -> ChannelRef.of("org", "orgId", "orgId")),
        () -> refused(bad, "'org id'", () -> ChannelRef.of("org", "org id")),
        () -> refused(bad, "no policy", () -> Declarations.builder().channel(Channel.of(org))),
        () -> refused(bad, "no column 'orgId'", () -> Channel.of(org).records(posts)),
        () -> refused(bad, "1 columns", () -> Channel.of(ChannelRef.of("pair", "a", "b")).records(posts, "org_id")),
        () -> refused(bad, "catch-up", () -> Declarations.builder()
            .channel(Channel.of(org).records(posts, "org_id").policy(Policy.memberOfParam("orgId")))),
        () -> refused(bad, "'feed'", () -> Declarations.builder()
            .channel(Channel.of(org.catchUp(FEED)).records(posts, "org_id").policy(Policy.memberOfParam("orgId")))
            .build()),
        () -> refused(bad, "'Typing'", () -> Channel.of(org).events("Typing")));
  }

  @Test
  void inputsAreRefusedNamingTheFieldPath() {
    JsonLimits limits = JsonLimits.INPUT_DEFAULTS;
    InputInvalidException missing = assertThrows(InputInvalidException.class,
        () -> FEED.decodeInput(Json.parse("{}"), limits));
    InputInvalidException unknown = assertThrows(InputInvalidException.class,
        () -> FEED.decodeInput(Json.parse("{\"orgId\":\"a\",\"extra\":1}"), limits));
    InputInvalidException wrongType = assertThrows(InputInvalidException.class,
        () -> FEED.decodeInput(Json.parse("{\"orgId\":1}"), limits));
    InputInvalidException deep = assertThrows(InputInvalidException.class,
        () -> FEED.decodeInput(Json.parse("{\"orgId\":" + "[".repeat(40) + "]".repeat(40) + "}"), limits));
    InputInvalidException noInput = assertThrows(InputInvalidException.class,
        () -> NoInput.CODEC.decode(Json.parse("{\"x\":1}")));
    assertAll(
        () -> assertEquals("orgId", missing.path()),
        () -> assertEquals("extra", unknown.path()),
        () -> assertEquals("orgId", wrongType.path()),
        () -> assertTrue(deep.path().startsWith("orgId"), deep.path()),
        () -> assertEquals("x", noInput.path()),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, deep.code()));
  }

  @Test
  void isNullIsTheOnlyFilterOnJsonAndArrayColumns() {
    Select s = select(POSTS).where(Filter.and(isNull("meta"), Filter.isNotNull("tags")));
    assertEquals(2, ((Filter.And) s.filter()).filters().size());
  }
}
