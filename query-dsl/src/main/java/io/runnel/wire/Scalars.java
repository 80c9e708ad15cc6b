package io.runnel.wire;

/** The scalar codecs behind {@link JsonCodec#text()} and its siblings, and the checks {@link ObjectReader} uses. */
final class Scalars {

  private Scalars() {}

  static final JsonCodec<String> TEXT = new JsonCodec<>() {
    @Override
    public String decode(JsonValue json, String path) {
      return text(json, path);
    }

    @Override
    public JsonValue encode(String value) {
      return new JsonString(value);
    }
  };

  static final JsonCodec<Integer> INT4 = new JsonCodec<>() {
    @Override
    public Integer decode(JsonValue json, String path) {
      return int4(json, path);
    }

    @Override
    public JsonValue encode(Integer value) {
      return JsonNumber.of(value);
    }
  };

  static final JsonCodec<Long> INT8 = new JsonCodec<>() {
    @Override
    public Long decode(JsonValue json, String path) {
      return int8(json, path);
    }

    @Override
    public JsonValue encode(Long value) {
      return new JsonString(Long.toString(value));
    }
  };

  static final JsonCodec<Boolean> BOOL = new JsonCodec<>() {
    @Override
    public Boolean decode(JsonValue json, String path) {
      return bool(json, path);
    }

    @Override
    public JsonValue encode(Boolean value) {
      return JsonBoolean.of(value);
    }
  };

  static final JsonCodec<JsonValue> ANY = new JsonCodec<>() {
    @Override
    public JsonValue decode(JsonValue json, String path) {
      return json;
    }

    @Override
    public JsonValue encode(JsonValue value) {
      return value;
    }
  };

  static String text(JsonValue json, String path) {
    if (json instanceof JsonString s) {
      return s.value();
    }
    throw wrongType(path, "a string", json);
  }

  static boolean bool(JsonValue json, String path) {
    if (json instanceof JsonBoolean b) {
      return b.value();
    }
    throw wrongType(path, "a boolean", json);
  }

  static int int4(JsonValue json, String path) {
    long v = integer(json, path, "an integer");
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new InputInvalidException(path, "is out of range for a 32-bit integer",
          "Send an integer from -2147483648 to 2147483647.");
    }
    return (int) v;
  }

  static long int8(JsonValue json, String path) {
    if (json instanceof JsonString s) {
      String t = s.value();
      if (!Digits.isLongText(t)) {
        throw new InputInvalidException(path, "must be a 64-bit integer written in decimal digits",
            "Send the integer as a string of digits, for example \"9007199254740993\".");
      }
      try {
        return Digits.parseLong(t);
      } catch (NumberFormatException e) {
        throw new InputInvalidException(path, "is out of range for a 64-bit integer",
            "Send an integer from -9223372036854775808 to 9223372036854775807.");
      }
    }
    return integer(json, path, "a 64-bit integer (a string of digits or a JSON integer)");
  }

  private static long integer(JsonValue json, String path, String expected) {
    if (!(json instanceof JsonNumber n)) {
      throw wrongType(path, expected, json);
    }
    try {
      return n.longValueExact();
    } catch (ArithmeticException e) {
      throw new InputInvalidException(path, "must be an integer in range, not " + n.text(),
          "Send a whole number without fraction or exponent beyond 64 bits.");
    }
  }

  static double number(JsonValue json, String path) {
    if (json instanceof JsonNumber n) {
      return n.doubleValue();
    }
    throw wrongType(path, "a number", json);
  }

  static InputInvalidException wrongType(String path, String expected, JsonValue actual) {
    return new InputInvalidException(path, "must be " + expected + ", not " + actual.typeName(),
        "Send " + expected + " in that field.");
  }
}
