package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.PercentEncoding;
import io.runnel.wire.Texts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The client-safe half of a channel: its name, its ordered params and the name of its catch-up query (re-run over
 * HTTP after a {@code gap}). {@link #topic} is the one spelling of a topic: {@code <name>.<p1>.<p2>…} with each
 * param percent-encoded, so a {@code .} inside a param is {@code %2E} ({@code docs/protocol.md}, "Topics").
 *
 * <pre>{@code static final ChannelRef ORG = ChannelRef.of("org", "orgId").catchUp(LIVE_FEED);}</pre>
 */
public final class ChannelRef {

  private final String name;
  private final List<String> params;
  private final @Nullable String catchUpQuery;

  private ChannelRef(String name, List<String> params, @Nullable String catchUpQuery) {
    this.name = name;
    this.params = params;
    this.catchUpQuery = catchUpQuery;
  }

  /**
   * A channel named {@code name} ({@code [a-z][a-z0-9-]*}) with ordered, unique params.
   *
   * @throws DeclarationException ({@code X_CHANNEL_DECLARATION_INVALID}) for a bad name, a bad param name or a
   *     param named twice
   */
  public static ChannelRef of(String name, String... params) {
    Objects.requireNonNull(name, "name");
    if (!isChannelName(name)) {
      throw invalid("Channel name '" + name + "' is not valid.",
          "Use lower-case letters, digits and '-', starting with a letter ([a-z][a-z0-9-]*), at most 64 characters.");
    }
    List<String> list = new ArrayList<>();
    for (String p : params) {
      Objects.requireNonNull(p, "param");
      if (!Names.isName(p)) {
        throw invalid("Param '" + p + "' of channel '" + name + "' is not a valid name.",
            "Use letters, digits and underscores, starting with a letter.");
      }
      // indexOf, not contains: in a TeaVM bundle List.contains calls equals on every class any list holds.
      if (list.indexOf(p) >= 0) {
        throw invalid("Param '" + p + "' of channel '" + name + "' is repeated.", "Name each param once.");
      }
      list.add(p);
    }
    return new ChannelRef(name, Collections.unmodifiableList(list), null);
  }

  /** This channel with {@code query} as its catch-up query. */
  public ChannelRef catchUp(QueryRef<?> query) {
    return new ChannelRef(name, params, Objects.requireNonNull(query, "query").name());
  }

  /** The channel's name. */
  public String name() {
    return name;
  }

  /** The params, in topic order. */
  public List<String> params() {
    return params;
  }

  /** The catch-up query's name, or null when the channel carries no records. */
  public @Nullable String catchUpQuery() {
    return catchUpQuery;
  }

  /**
   * The topic for param values given in param order.
   *
   * @throws IllegalArgumentException when the count differs from the params
   */
  public String topic(String... values) {
    if (values.length != params.size()) {
      // Texts.list, not the list itself: concatenating an Object links every class's toString into a bundle.
      throw new IllegalArgumentException("Channel '" + name + "' takes " + params.size() + " params "
          + Texts.list(params) + ", not " + values.length);
    }
    StringBuilder t = new StringBuilder(name);
    for (String v : values) {
      t.append('.').append(PercentEncoding.encode(Objects.requireNonNull(v, "param value")));
    }
    return t.toString();
  }

  /**
   * The topic for param values by name.
   *
   * @throws IllegalArgumentException when a param is missing or an unknown one is given
   */
  public String topic(Map<String, String> values) {
    if (!values.keySet().equals(new HashSet<>(params))) {
      throw new IllegalArgumentException("Channel '" + name + "' takes params " + params + ", not " + values.keySet());
    }
    String[] ordered = new String[params.size()];
    for (int i = 0; i < ordered.length; i++) {
      ordered[i] = values.get(params.get(i));
    }
    return topic(ordered);
  }

  /**
   * The param values of {@code topic}, by name, when the topic is this channel's; null when it names another
   * channel or has another number of params.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) naming the param (its path is the param's name) when
   *     it is not in the percent-encoded form {@link #topic} writes
   */
  // "%2E" in the fix is a percent-encoded dot, not a format specifier.
  @SuppressWarnings("OrphanedFormatString")
  public @Nullable Map<String, String> parseTopic(String topic) {
    List<String> parts = splitOnDots(topic);
    if (!parts.get(0).equals(name) || parts.size() != params.size() + 1) {
      return null;
    }
    LinkedHashMap<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < params.size(); i++) {
      String param = params.get(i);
      try {
        out.put(param, PercentEncoding.decode(parts.get(i + 1)));
      } catch (IllegalArgumentException e) {
        throw new InputInvalidException(param, "of topic '" + topic + "' is not percent-encoded UTF-8",
            "Percent-encode each param's UTF-8 bytes except A-Z a-z 0-9 - _ ~ (a '.' is %2E), as docs/protocol.md's "
                + "\"Topics\" says.");
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** Whether {@code s} matches {@code [a-z][a-z0-9-]*} and has at most 64 characters. */
  private static boolean isChannelName(String s) {
    if (s.isEmpty() || s.length() > 64) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (i > 0 && ((c >= '0' && c <= '9') || c == '-')))) {
        return false;
      }
    }
    return true;
  }

  /** {@code s} split at every '.', empty parts kept (as {@code split("\\.", -1)} does). */
  private static List<String> splitOnDots(String s) {
    List<String> parts = new ArrayList<>();
    int from = 0;
    for (int dot = s.indexOf('.'); dot >= 0; dot = s.indexOf('.', from)) {
      parts.add(s.substring(from, dot));
      from = dot + 1;
    }
    parts.add(s.substring(from));
    return parts;
  }

  private static DeclarationException invalid(String cause, String fix) {
    return new DeclarationException(ErrorCode.X_CHANNEL_DECLARATION_INVALID, cause, fix);
  }

  @Override
  public String toString() {
    return "ChannelRef[" + name + " " + params + "]";
  }
}
