package io.runnel.dsl;

import static io.runnel.dsl.Dsl.and;
import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.gt;
import static io.runnel.dsl.Dsl.gte;
import static io.runnel.dsl.Dsl.ilike;
import static io.runnel.dsl.Dsl.in;
import static io.runnel.dsl.Dsl.isNotNull;
import static io.runnel.dsl.Dsl.isNull;
import static io.runnel.dsl.Dsl.like;
import static io.runnel.dsl.Dsl.lt;
import static io.runnel.dsl.Dsl.lte;
import static io.runnel.dsl.Dsl.neq;
import static io.runnel.dsl.Dsl.not;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.MutatorRefusedException;
import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.RunnelException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What app code touches besides declarations: the one-import facade, typed row getters, and coded refusals. */
class AppFacingApiTest {

  static final EntityRef T = EntityRef.of("t").key("id")
      .columns(c -> c.int4("id").int2("small").text("title").bool("done").float8("score").numeric("price")
          .timestamptz("at"));

  @Test
  void oneStaticImportOfDslBuildsWhatFilterOrderAndSelectBuild() {
    assertAll(
        () -> assertEquals(Filter.eq("id", 1), eq("id", 1)),
        () -> assertEquals(Filter.neq("id", 1), neq("id", 1)),
        () -> assertEquals(Filter.lt("id", 1), lt("id", 1)),
        () -> assertEquals(Filter.lte("id", 1), lte("id", 1)),
        () -> assertEquals(Filter.gt("id", 1), gt("id", 1)),
        () -> assertEquals(Filter.gte("id", 1), gte("id", 1)),
        () -> assertEquals(Filter.in("id", List.of(1, 2)), in("id", List.of(1, 2))),
        () -> assertEquals(Filter.in("id", List.of(1, 2)), in("id", 1, 2), "varargs and List build one filter"),
        () -> assertEquals(Filter.isNull("title"), isNull("title")),
        () -> assertEquals(Filter.isNotNull("title"), isNotNull("title")),
        () -> assertEquals(Filter.like("title", "a%"), like("title", "a%")),
        () -> assertEquals(Filter.ilike("title", "a%"), ilike("title", "a%")),
        () -> assertEquals(Filter.not(isNull("title")), not(isNull("title"))),
        () -> assertEquals(Filter.and(isNull("title"), isNull("at")), and(isNull("title"), isNull("at"))),
        () -> assertEquals(Order.asc("id"), asc("id")),
        () -> assertEquals(Order.desc("id"), desc("id")),
        () -> assertEquals(Select.select(T).toString(), select(T).toString()));
  }

  @Test
  void dslHasAMethodForEveryFactoryOfFilterOrderAndSelect() {
    Set<String> factories = Stream.of(Filter.class, Order.class, Select.class)
        .flatMap(c -> Arrays.stream(c.getDeclaredMethods()))
        .filter(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
        .filter(m -> m.getReturnType() == Filter.class || m.getReturnType() == Order.class
            || m.getReturnType() == Select.class)
        .map(AppFacingApiTest::signature)
        .collect(Collectors.toCollection(TreeSet::new));
    Set<String> facade = Arrays.stream(Dsl.class.getDeclaredMethods())
        .filter(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
        .map(AppFacingApiTest::signature)
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(factories, facade);
  }

  @Test
  void inTakesValuesOneByOneNullsIncluded() {
    Select s = select(T).where(in("id", 1, null, 3));
    assertEquals(Arrays.asList(1, null, 3), ((Filter.In) s.filter()).values());
  }

  @Test
  void typedGettersReturnEachColumnTypesJavaClassAndNullForNull() {
    Map<String, Object> values = new HashMap<>();
    values.put("id", 1);
    values.put("small", ColumnType.INT2.parse("7"));
    values.put("title", "hi");
    values.put("done", null);
    values.put("score", -0.5);
    values.put("price", PgNumeric.parse("0.10"));
    values.put("at", ColumnType.TIMESTAMPTZ.parse("2024-02-29 13:45:00+00"));
    Row row = Row.of(values);
    assertAll(
        () -> assertEquals(1, row.int4("id")),
        () -> assertEquals(7, row.int4("small"), "int4() reads int2 too: both are Integer"),
        () -> assertEquals("hi", row.text("title")),
        () -> assertNull(row.bool("done"), "a NULL bool is null, never false"),
        () -> assertEquals(Boolean.TRUE, row.with("done", true).bool("done")),
        () -> assertEquals(-0.5, row.float8("score")),
        () -> assertEquals("0.10", row.numeric("price").text()),
        () -> assertEquals("2024-02-29 13:45:00+00", ColumnType.TIMESTAMPTZ.format(row.timestamp("at"))),
        () -> assertNull(row.numeric("absent")),
        () -> assertThrows(ClassCastException.class, () -> row.float8("price")));
  }

  @Test
  void aMutatorRefusesWithItsOwnCodeNeverRunnels() {
    MutatorRefusedException e = new MutatorRefusedException("X_POST_NOT_FOUND", 409, "No such post.", "Reload.");
    assertAll(
        () -> assertEquals(
            Json.parse("{\"code\":\"X_POST_NOT_FOUND\",\"cause\":\"No such post.\",\"fix\":\"Reload.\"}"),
            e.toJson(), "the protocol's error body"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> new MutatorRefusedException("X_INPUT_INVALID", 422, "c", "f"), "Runnel's own code"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> new MutatorRefusedException("X_FORBIDDEN", 409, "c", "f"), "Runnel's own code"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> new MutatorRefusedException("post_missing", 409, "c", "f"), "not X_…"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> new MutatorRefusedException("X_GONE", 410, "c", "f"), "409 or 422 only"));
  }

  @Test
  void aRunnelExceptionIsAlwaysASubclassPerConcern() {
    ConfigInvalidException config = new ConfigInvalidException("PORT is 'x'.", "Set PORT to a number.");
    assertAll(
        () -> assertTrue(Arrays.stream(RunnelException.class.getDeclaredConstructors())
            .map(Constructor::getModifiers).allMatch(Modifier::isProtected), "no public constructor"),
        () -> assertEquals(ErrorCode.X_CONFIG_INVALID, config.code()),
        () -> assertEquals("X_CONFIG_INVALID: PORT is 'x'. Fix: Set PORT to a number.", config.getMessage()));
  }

  private static String signature(Method m) {
    return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList();
  }
}
