package io.runnel.client.browser.internal;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonSyntaxException;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import org.teavm.jso.JSBody;
import org.teavm.jso.JSObject;

/**
 * JSON text through the browser: {@code JSON.parse} reads it, and the tree it builds is walked into the
 * {@link JsonValue} model, so a bundle holds no Java JSON parser; {@link Json#write} writes it (exact number text,
 * member order kept, the same escaping {@code JSON.stringify} uses).
 *
 * <p>It reads what {@code JSON.parse} reads, which is laxer than the DSL's strict parser: a repeated member name
 * keeps its last value, a lone surrogate escape is kept, and a number becomes the double it denotes (its text is
 * the browser's {@code String(number)}: {@code 1.50} reads as {@code 1.5}, and integers past 2^53 round, which is
 * why the protocol sends int8 and numeric as strings). Members whose names are array indices come first, in
 * ascending order, as JavaScript orders them. Text that is not JSON throws {@link JsonSyntaxException} with the
 * browser's message.
 */
public final class JsJsonPort implements JsonPort {

  private static final int NULL = 0;
  private static final int BOOLEAN = 1;
  private static final int NUMBER = 2;
  private static final int STRING = 3;
  private static final int ARRAY = 4;

  @Override
  public JsonValue parse(String text) {
    JSObject box = parseBoxed(text);
    String problem = problem(box);
    if (problem != null) {
      throw new JsonSyntaxException(problem);
    }
    return value(boxed(box));
  }

  @Override
  public String write(JsonValue value) {
    return Json.write(value);
  }

  private static JsonValue value(JSObject v) {
    switch (kind(v)) {
      case NULL -> {
        return JsonNull.NULL;
      }
      case BOOLEAN -> {
        return JsonBoolean.of(bool(v));
      }
      case NUMBER -> {
        return new JsonNumber(numberText(v));
      }
      case STRING -> {
        return new JsonString(string(v));
      }
      case ARRAY -> {
        int n = length(v);
        List<JsonValue> elements = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          elements.add(value(at(v, i)));
        }
        return new JsonArray(elements);
      }
      default -> {
        JSObject names = keys(v);
        int n = length(names);
        LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          String name = string(at(names, i));
          members.put(name, value(member(v, name)));
        }
        return new JsonObject(members);
      }
    }
  }

  @JSBody(params = "t", script = "try { return {v: JSON.parse(t)}; } catch (error) {"
      + " return {e: String(error.message)}; }")
  private static native JSObject parseBoxed(String t);

  @JSBody(params = "b", script = "return b.e === undefined ? null : b.e;")
  private static native String problem(JSObject b);

  @JSBody(params = "b", script = "return b.v;")
  private static native JSObject boxed(JSObject b);

  @JSBody(params = "v", script = "return v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2"
      + " : typeof v === 'string' ? 3 : Array.isArray(v) ? 4 : 5;")
  private static native int kind(JSObject v);

  @JSBody(params = "v", script = "return v;")
  private static native boolean bool(JSObject v);

  @JSBody(params = "v", script = "return String(v);")
  private static native String numberText(JSObject v);

  @JSBody(params = "v", script = "return v;")
  private static native String string(JSObject v);

  @JSBody(params = "v", script = "return v.length;")
  private static native int length(JSObject v);

  @JSBody(params = {"v", "i"}, script = "return v[i];")
  private static native JSObject at(JSObject v, int i);

  @JSBody(params = "v", script = "return Object.keys(v);")
  private static native JSObject keys(JSObject v);

  @JSBody(params = {"v", "k"}, script = "return v[k];")
  private static native JSObject member(JSObject v, String k);
}
