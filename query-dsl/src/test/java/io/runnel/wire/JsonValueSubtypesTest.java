package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonValue}'s subtypes, pinned. {@code JsonValue.typeName}, {@code Json.write} and {@code JsonLimits.walk} read
 * a value with a chain of {@code instanceof} in place of a type switch (TeaVM writes a switch out at length:
 * {@code docs/client.md}, "Type switches in small helpers"), so the compiler no longer checks that they handle every
 * subtype; a new one fails here instead.
 */
class JsonValueSubtypesTest {

  @Test
  void theChainsThatReadAJsonValueKnowEachOfItsSubtypes() {
    assertEquals(Set.of(JsonObject.class, JsonArray.class, JsonString.class, JsonNumber.class, JsonBoolean.class,
        JsonNull.class), Set.of(JsonValue.class.getPermittedSubclasses()),
        "a new JsonValue: extend JsonValue.typeName, Json.write and JsonLimits.walk, then this list");
  }
}
