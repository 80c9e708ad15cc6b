package io.runnel.client.smoke;

import static io.runnel.dsl.Dsl.and;
import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.gte;
import static io.runnel.dsl.Dsl.ilike;
import static io.runnel.dsl.Dsl.in;
import static io.runnel.dsl.Dsl.isNull;
import static io.runnel.dsl.Dsl.not;
import static io.runnel.dsl.Dsl.select;

import io.runnel.client.browser.JsNumberText;
import io.runnel.dsl.Actor;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.ColumnType;
import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.PgNumeric;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.dsl.ValueInvalidException;
import io.runnel.wire.CanonicalJson;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Numbers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.teavm.jso.JSExport;

/**
 * Runs a fixed scenario over the DSL's client-safe classes and returns a transcript, one line per step. The same
 * transcript must come out of the JVM and of the TeaVM-compiled module: that is what the smoke test checks.
 */
public final class DslSmoke {

  /** A post, as an app would declare it. */
  static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.uuid("id").text("org_id").text("title").int4("like_count").int8("views")
          .float8("score").numeric("price").bool("pinned").date("day").timestamptz("created_at")
          .bytea("blob").textArray("tags").jsonb("meta"));

  /** A like: composite key. */
  static final EntityRef LIKES = EntityRef.of("likes").key("post_id", "user_id")
      .columns(c -> c.uuid("post_id").text("user_id").int8("weight"));

  /** A feed query's input. */
  record FeedInput(String orgId, @Nullable String search) {
    static final JsonCodec<FeedInput> CODEC = JsonCodec.object(
        r -> new FeedInput(r.text("orgId"), r.optionalText("search")),
        (in, w) -> w.put("orgId", in.orgId()).put("search", in.search()));
  }

  static final QueryRef<FeedInput> FEED = QueryRef.live("liveFeed", FeedInput.CODEC,
      in -> {
        Select s = select(POSTS).where(eq("org_id", in.orgId()))
            .orderBy(desc("pinned"), desc("created_at").nullsLast()).limit(3);
        return in.search() == null ? s : s.where(ilike("title", "%" + in.search() + "%"));
      });

  /** A like's input. */
  record LikeInput(String postId) {
    static final JsonCodec<LikeInput> CODEC = JsonCodec.object(
        r -> new LikeInput(r.text("postId")), (in, w) -> w.put("postId", in.postId()));
  }

  static final MutatorRef<LikeInput> LIKE = MutatorRef.of("likePost", LikeInput.CODEC)
      .local((tx, in) -> tx.update(POSTS, in.postId(), p -> p.plus("like_count", 1)))
      .conflict(Conflict.SERVER_WINS);

  static final ChannelRef ORG = ChannelRef.of("org", "orgId").catchUp(FEED);

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  private DslSmoke() {}

  /** The transcript of the scenario. */
  @JSExport
  public static String run() {
    List<String> out = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    String[] texts = {
        "{\"id\":\"0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\",\"org_id\":\"acme\",\"title\":\"Hello Wörld\","
            + "\"like_count\":3,\"views\":\"9007199254740993\",\"score\":0.1,\"price\":\"10.50\",\"pinned\":false,"
            + "\"day\":\"2024-02-29\",\"created_at\":\"2024-02-29T13:45:00.5Z\",\"blob\":\"AAH/\","
            + "\"tags\":[\"a\",null,\"b c\"],\"meta\":{\"k\":[1,2.5e-7,true]}}",
        "{\"id\":\"1b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\",\"org_id\":\"acme\",\"title\":\"hello again\","
            + "\"like_count\":0,\"views\":\"1\",\"score\":\"NaN\",\"price\":\"NaN\",\"pinned\":true,"
            + "\"day\":\"infinity\",\"created_at\":null,\"blob\":\"\",\"tags\":[],\"meta\":null}",
        "{\"id\":\"2b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\",\"org_id\":\"acme\",\"title\":\"Bye\","
            + "\"like_count\":7,\"views\":\"-9223372036854775808\",\"score\":-1e300,\"price\":\"-0.001\","
            + "\"pinned\":false,\"day\":\"0044-03-15 BC\",\"created_at\":\"1969-12-31T23:59:59.999999Z\","
            + "\"blob\":null,\"tags\":null,\"meta\":[]}",
        "{\"id\":\"3b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\",\"org_id\":\"other\",\"title\":\"hello elsewhere\","
            + "\"like_count\":1,\"views\":\"2\",\"score\":1e21,\"price\":\"1\",\"pinned\":true,"
            + "\"day\":\"2000-01-01\",\"created_at\":\"-infinity\",\"blob\":\"AA==\",\"tags\":[\"x\"],\"meta\":1}"};
    for (String t : texts) {
      Row r = POSTS.rowFromJson(Json.parse(t), "");
      rows.add(r);
      out.add("row " + POSTS.keyOf(r) + " " + Json.write(POSTS.rowToJson(r)));
    }
    for (String input : new String[] {"{\"orgId\":\"acme\"}", "{\"orgId\":\"acme\",\"search\":\"HELLO\"}"}) {
      FeedInput in = FEED.decodeInput(Json.parse(input), JsonLimits.INPUT_DEFAULTS);
      Matcher m = Matcher.of(FEED.select(in, Actor.anonymous()));
      List<Row> matched = new ArrayList<>();
      for (Row r : rows) {
        if (m.matches(r)) {
          matched.add(r);
        }
      }
      matched.sort(m);
      StringBuilder keys = new StringBuilder();
      for (Row r : matched) {
        keys.append(' ').append(POSTS.keyOf(r));
      }
      out.add("feed " + input + " ->" + keys + " routing " + m.select().routingKey());
    }
    Select odd = select(POSTS).where(and(not(isNull("price")), gte("score", -1.0), in("like_count", List.of(0, 3, 7))))
        .orderBy(asc("price"));
    Matcher m = Matcher.of(odd);
    StringBuilder keys = new StringBuilder();
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(m);
    for (Row r : sorted) {
      keys.append(' ').append(m.evaluate(r).name().charAt(0));
    }
    out.add("truths by price" + keys);
    Row like = Row.of(Map.of("post_id", "0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69", "user_id", "ada", "weight", 5L));
    out.add("composite key " + LIKES.keyOf(like) + " built "
        + LIKES.key("0B7E7D8A-5A4F-4C1E-9A43-1F2D3C4B5A69", "ada"));
    out.add("routing " + select(POSTS).where(and(eq("price", "1.0"), eq("score", -0.0), in("like_count", 1, 2)))
        .routingKey() + " value " + ColumnType.NUMERIC.routingValue(PgNumeric.parse("10.500")));
    try {
      PgNumeric.parse("1e99999999");
    } catch (ValueInvalidException e) {
      out.add("numeric refused " + e.code());
    }
    out.add("canonical "
        + CanonicalJson.write(Json.parse("{\"b\":[1e21,1E-7,0.000001,-0],\"a\":\"\\u00e9\\n\",\"\\u20ac\":1}")));
    out.add("topic " + ORG.topic("acme.io/ä") + " " + ORG.parseTopic(ORG.topic("acme.io/ä")));
    Map<String, Row> store = new HashMap<>();
    store.put(POSTS.keyOf(rows.get(0)), rows.get(0));
    LocalTx tx = new MapTx(store);
    Objects.requireNonNull(LIKE.local())
        .apply(tx, LIKE.codec().decode(Json.parse("{\"postId\":\"0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\"}")));
    out.add("twin like_count " + Objects.requireNonNull(store.get("0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69"))
        .get("like_count"));
    Row scored = rows.get(0).plus("score", 2).plus("like_count", -3);
    out.add("plus score " + Json.write(POSTS.rowToJson(scored)) + " float4 "
        + ColumnType.FLOAT4.format(
            Objects.requireNonNull(Row.of(Map.of("f", ColumnType.FLOAT4.parse("1.5"))).plus("f", 3).get("f"))));
    try {
      FEED.decodeInput(Json.parse("{\"orgId\":7}"), JsonLimits.INPUT_DEFAULTS);
    } catch (InputInvalidException e) {
      out.add("refused " + e.code() + " " + e.path());
    }
    for (ColumnType t : ColumnType.ALL) {
      out.add("type " + t.sqlName() + " comparable=" + t.comparable());
    }
    out.add("describe " + describe(Json.parse("[1,\"x\",null,{}]")));
    StringBuilder floats = new StringBuilder("float8");
    for (double d : new double[] {0.1, 1e21, 1e-7, 5.710481570177606e16, Double.MIN_VALUE, 1.0 / 3,
        123456789012345680.0, 1e15, 1e14 + 0.5, -0.0, Double.MAX_VALUE, 2.5e-7, -1e300, 100}) {
      floats.append(' ').append(ColumnType.FLOAT8.format(d));
    }
    floats.append(" float4");
    for (float f : new float[] {0.1f, Float.MIN_VALUE, Float.MAX_VALUE, 16777216f, 1e6f, 123456.7f, 1.0e-10f}) {
      floats.append(' ').append(ColumnType.FLOAT4.format(f));
    }
    out.add(floats.toString());
    StringBuilder parsed = new StringBuilder("parsed");
    for (String t : new String[] {"0.1", "2.5e-7", "1e308", "4.9e-324", "2.2250738585072011e-308", "9007199254740993",
        "-.5", "+5.", "1.00000005960464477539062499"}) {
      parsed.append(' ').append(ColumnType.FLOAT8.format(ColumnType.FLOAT8.parse(t)));
    }
    // float4 texts whose float TeaVM's own Float.parseFloat reads right: a bundle holds floats as doubles (TeaVM's
    // non-strict float model), so subnormal, rounding-edge and 2^24-edge float4 texts may read otherwise there.
    for (String t : new String[] {"0.1", "1e38", "-.5", "+5.", "3.25"}) {
      parsed.append(' ').append(ColumnType.FLOAT4.format(ColumnType.FLOAT4.parse(t)));
    }
    out.add(parsed.toString());
    out.add("canonical numbers " + CanonicalJson.write(Json.parse(
        "[5e-324,1.7976931348623157e308,123e-20,0.1,1e21,999999999999999999999,-1.5e-7,100,1E2]")));
    return String.join("\n", out);
  }

  private static String describe(JsonValue v) {
    return switch (v) {
      case JsonArray a -> {
        StringBuilder s = new StringBuilder("array");
        for (JsonValue e : a.elements()) {
          s.append(' ').append(describe(e));
        }
        yield s.toString();
      }
      case JsonObject o -> "object" + o.size();
      case JsonString s -> "string";
      case JsonNumber n -> "number";
      case JsonBoolean b -> "boolean";
      case JsonNull n -> "null";
    };
  }

  /** A plain map as the page's records, for the twin. */
  private record MapTx(Map<String, Row> store) implements LocalTx {
    @Override
    public Actor actor() {
      return Actor.anonymous();
    }

    @Override
    public @Nullable Row get(EntityRef type, String key) {
      return store.get(key);
    }

    @Override
    public void insert(EntityRef type, Row row) {
      store.put(type.keyOf(row), row);
    }

    @Override
    public void update(EntityRef type, String key, UnaryOperator<Row> change) {
      Row r = store.get(key);
      if (r != null) {
        store.put(key, r.merge(change.apply(r)));
      }
    }

    @Override
    public void delete(EntityRef type, String key) {
      store.remove(key);
    }
  }
}
