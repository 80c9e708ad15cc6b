package io.runnel.client.testapp;

import io.runnel.client.Refs;
import io.runnel.client.port.JsonPort;
import io.runnel.dsl.Actor;
import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.ObjectReader;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The test app's probe API, exported by {@code app-probe.js} ({@link AppProbe}) and called on the JVM alike, as JSON
 * text in and out: the registered declarations, input encoding through the refs' codecs, the placement of records
 * in a query's order, and a mutator's local twin run over records passed in. {@code TestAppBundleTest} runs the
 * same calls in the TeaVM bundle under node and on the JVM and requires the same answers, so a DSL class that TeaVM
 * compiles differently (numbers, timestamps, ordering, codecs) fails the build. Every answer is a JSON object; a
 * failure is {@code {"error": {"code", "cause", "fix"}}} with the protocol's codes.
 *
 * <p>Pages never need it: the shipped bundles export only {@code connect}, whose client places optimistic records
 * and runs twins itself ({@code io.runnel.client.bundle.PageClient}).
 */
public final class BundleApi {

  private final Refs refs;
  private final JsonPort json;

  /** The API over {@code refs}, reading and writing JSON text through {@code json}. */
  public BundleApi(Refs refs, JsonPort json) {
    this.refs = Objects.requireNonNull(refs, "refs");
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * The declarations the bundle carries: {@code {"entities": [{"name", "key"}], "queries": [{"name", "live",
   * "perActor"}], "mutators": [{"name", "twin", "conflict"}]}}.
   */
  public String describe() {
    List<JsonValue> entities = new ArrayList<>();
    for (EntityRef e : refs.entities()) {
      entities.add(JsonObject.builder().put("name", e.name()).put("key", JsonArray.ofStrings(e.key())).build());
    }
    List<JsonValue> queries = new ArrayList<>();
    for (QueryRef<?> q : refs.queries()) {
      queries.add(JsonObject.builder().put("name", q.name()).put("live", q.live())
          .put("perActor", q.readsActor()).build());
    }
    List<JsonValue> mutators = new ArrayList<>();
    for (MutatorRef<?> m : refs.mutators()) {
      mutators.add(JsonObject.builder().put("name", m.name()).put("twin", m.local() != null)
          .put("conflict", conflict(m.conflict())).build());
    }
    return json.write(JsonObject.builder().put("entities", new JsonArray(entities))
        .put("queries", new JsonArray(queries)).put("mutators", new JsonArray(mutators)).build());
  }

  /**
   * A query's input decoded (validated) by its codec and encoded again, as a {@code sub} frame carries it:
   * {@code {"input": …}}, or an error ({@code X_LIVE_QUERY_UNKNOWN}, {@code X_INPUT_INVALID} naming the field).
   */
  public String queryInput(String query, String inputJson) {
    return answer(() -> {
      QueryRef<?> q = query(query);
      return JsonObject.builder().put("input", reencode(q, json.parse(inputJson))).build();
    });
  }

  /**
   * A mutator's input decoded (validated) by its codec and encoded again, as {@code POST /v1/mutate} sends it:
   * {@code {"input": …}}, or an error ({@code X_MUTATOR_UNKNOWN}, {@code X_INPUT_INVALID} naming the field).
   */
  public String mutatorInput(String mutator, String inputJson) {
    return answer(() -> {
      MutatorRef<?> m = mutator(mutator);
      return JsonObject.builder().put("input", reencode(m, json.parse(inputJson))).build();
    });
  }

  /**
   * The keys of the records (a JSON array of records of the query's entity) that the query's select matches, in
   * its order and cut to its limit: where optimistic records go in a live list. {@code {"keys": […]}}.
   *
   * @param actorId the signed-in actor's id for a per-actor query, or null for an anonymous page
   */
  public String place(String query, String inputJson, @Nullable String actorId, String recordsJson) {
    return answer(() -> {
      QueryRef<?> q = query(query);
      Select select = select(q, json.parse(inputJson), actorId == null ? Actor.anonymous() : Actor.user(actorId));
      EntityRef entity = select.entity();
      Matcher matcher = Matcher.of(select);
      List<Row> matched = new ArrayList<>();
      List<JsonValue> records = array(json.parse(recordsJson), "records");
      for (int i = 0; i < records.size(); i++) {
        Row row = entity.rowFromJson(records.get(i), "records[" + i + "]");
        if (matcher.matches(row)) {
          matched.add(row);
        }
      }
      matched.sort(matcher);
      List<String> keys = new ArrayList<>();
      for (int i = 0; i < matched.size() && i < select.limit(); i++) {
        keys.add(entity.keyOf(matched.get(i)));
      }
      return JsonObject.builder().put("keys", JsonArray.ofStrings(keys)).build();
    });
  }

  /**
   * Runs a mutator's local twin over the records the page passes ({@code [{"type", "record"}]}, types being
   * registered entities) and answers the records it changed, in the order first changed: {@code {"twin": true,
   * "records": [{"type", "key", "record"}]}}, {@code "record"} null for a delete. A mutator without a twin answers
   * {@code {"twin": false, "records": []}}.
   */
  public String runTwin(String mutator, String inputJson, String recordsJson) {
    return answer(() -> {
      MutatorRef<?> m = mutator(mutator);
      JsonValue input = json.parse(inputJson);
      MapTx tx = new MapTx();
      List<JsonValue> records = array(json.parse(recordsJson), "records");
      for (int i = 0; i < records.size(); i++) {
        String path = "records[" + i + "]";
        ObjectReader r = ObjectReader.of(records.get(i), path);
        String type = r.text("type");
        EntityRef entity = refs.entity(type);
        if (entity == null) {
          throw new InputInvalidException(path + ".type", "names no registered entity ('" + type + "')",
              "Use a type the bundle registers.");
        }
        Row row = entity.rowFromJson(r.value("record"), path + ".record");
        r.requireNoOtherMembers();
        tx.rows.put(entity.name() + ":" + entity.keyOf(row), row);
      }
      boolean twin = run(m, input, tx);
      List<JsonValue> changed = new ArrayList<>();
      for (Map.Entry<String, EntityRef> c : tx.changed.entrySet()) {
        EntityRef entity = c.getValue();
        String key = c.getKey().substring(entity.name().length() + 1);
        Row row = tx.rows.get(c.getKey());
        changed.add(JsonObject.builder().put("type", entity.name()).put("key", key)
            .put("record", row == null ? JsonNull.NULL : entity.rowToJson(row)).build());
      }
      return JsonObject.builder().put("twin", JsonBoolean.of(twin)).put("records", new JsonArray(changed)).build();
    });
  }

  private static String conflict(Conflict c) {
    return switch (c) {
      case Conflict.ServerWins s -> "serverWins";
      case Conflict.LastWriteWins l -> "lastWriteWins";
      case Conflict.Merge m -> "merge";
    };
  }

  private QueryRef<?> query(String name) {
    QueryRef<?> q = refs.query(name);
    if (q == null) {
      throw new Refused(ErrorCode.X_LIVE_QUERY_UNKNOWN, "No query named '" + name + "' is in this bundle.",
          "Register the query ref in the app's bundle, or check its name.");
    }
    return q;
  }

  private MutatorRef<?> mutator(String name) {
    MutatorRef<?> m = refs.mutator(name);
    if (m == null) {
      throw new Refused(ErrorCode.X_MUTATOR_UNKNOWN, "No mutator named '" + name + "' is in this bundle.",
          "Register the mutator ref in the app's bundle, or check its name.");
    }
    return m;
  }

  private static <I> JsonValue reencode(QueryRef<I> q, JsonValue input) {
    return q.codec().encode(q.decodeInput(input, JsonLimits.INPUT_DEFAULTS));
  }

  private static <I> JsonValue reencode(MutatorRef<I> m, JsonValue input) {
    return m.codec().encode(m.decodeInput(input, JsonLimits.INPUT_DEFAULTS));
  }

  private static <I> Select select(QueryRef<I> q, JsonValue input, Actor actor) {
    return q.select(q.decodeInput(input, JsonLimits.INPUT_DEFAULTS), actor);
  }

  private static <I> boolean run(MutatorRef<I> m, JsonValue input, LocalTx tx) {
    I in = m.decodeInput(input, JsonLimits.INPUT_DEFAULTS);
    MutatorRef.LocalMutation<I> twin = m.local();
    if (twin == null) {
      return false;
    }
    twin.apply(tx, in);
    return true;
  }

  private static List<JsonValue> array(JsonValue value, String path) {
    if (value instanceof JsonArray a) {
      return a.elements();
    }
    throw new InputInvalidException(path, "must be an array, not " + value.typeName(), "Pass a JSON array.");
  }

  /** The body's JSON text, or the error's when it throws a coded error or refuses a record. */
  private String answer(Body body) {
    JsonObject out;
    try {
      out = body.run();
    } catch (RunnelException e) {
      out = JsonObject.builder().put("error", e.toJson()).build();
    } catch (Refused e) {
      out = JsonObject.builder().put("error", e.toJson()).build();
    } catch (IllegalArgumentException e) {
      // A record missing a column the filter reads, or a key column: the page passed a partial record.
      out = JsonObject.builder().put("error", new InputInvalidException("records",
          "holds a record the select cannot read: " + e.getMessage(), "Pass whole records.").toJson()).build();
    }
    return json.write(out);
  }

  /** A step that answers a JSON object. */
  @FunctionalInterface
  private interface Body {
    JsonObject run();
  }

  /** A coded refusal of the client's own (the DSL's exceptions have no public constructor for these codes). */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ErrorCode code;
    private final String cause;
    private final String fix;

    Refused(ErrorCode code, String cause, String fix) {
      super(code.name() + ": " + cause);
      this.code = code;
      this.cause = cause;
      this.fix = fix;
    }

    JsonObject toJson() {
      return JsonObject.builder().put("code", code.name()).put("cause", cause).put("fix", fix).build();
    }
  }

  /** The page's records as a map by {@code type:key}, remembering which the twin changed. */
  private static final class MapTx implements LocalTx {
    final Map<String, Row> rows = new LinkedHashMap<>();
    final Map<String, EntityRef> changed = new LinkedHashMap<>();

    @Override
    public Actor actor() {
      return Actor.anonymous();
    }

    @Override
    public @Nullable Row get(EntityRef type, String key) {
      return rows.get(type.name() + ":" + key);
    }

    @Override
    public void insert(EntityRef type, Row row) {
      String id = type.name() + ":" + type.keyOf(row);
      rows.put(id, row);
      changed.put(id, type);
    }

    @Override
    public void update(EntityRef type, String key, UnaryOperator<Row> change) {
      String id = type.name() + ":" + key;
      Row row = rows.get(id);
      if (row != null) {
        rows.put(id, row.merge(change.apply(row)));
        changed.put(id, type);
      }
    }

    @Override
    public void delete(EntityRef type, String key) {
      String id = type.name() + ":" + key;
      if (rows.remove(id) != null) {
        changed.put(id, type);
      }
    }
  }
}
