package io.runnel.protocol;

import io.runnel.wire.JsonObject;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A frame a client sends to a node ({@code docs/protocol.md}, "Socket frames", client to node), written by
 * {@link FrameEncoder} and read by {@link FrameDecoder#client}. Each record validates its values; a decoded frame
 * is well formed, not yet admitted (the node still checks versions, names, policies and caps).
 */
public sealed interface ClientFrame
    permits ClientFrame.Hello, ClientFrame.Sub, ClientFrame.Unsub, ClientFrame.Join, ClientFrame.Leave {

  /** The protocol version Runnel speaks, on both sides. */
  int VERSION = 1;

  /** The frame's kind, its {@code t} field. */
  String t();

  /** Whether {@code sid} is a subscription id as frames carry it: 1–64 UTF-16 characters. */
  static boolean isSid(@Nullable String sid) {
    return Frames.isSid(sid);
  }

  /**
   * {@code hello}: the first frame, then the client's heartbeat. A version other than {@link #VERSION} decodes; the
   * node refuses it with {@code X_PROTOCOL_VERSION}.
   *
   * @param v the protocol version the client speaks
   * @param build the client's build label, or null when it sent none
   */
  record Hello(int v, @Nullable String build) implements ClientFrame {
    /** A hello in this side's protocol version, {@link #VERSION}. */
    public Hello(@Nullable String build) {
      this(VERSION, build);
    }

    @Override
    public String t() {
      return "hello";
    }
  }

  /**
   * {@code sub}: subscribe to a live query, or resume a subscription when {@code cursor} is given.
   *
   * @param sid the subscription id, 1–64 characters, unique on the socket
   * @param q the live query's name (non-empty)
   * @param in the query's input object, unchecked (the live engine applies the input limits: depth 32, 10,000 nodes)
   * @param cursor where the client's list stands ({@code qid, lsn, at, ids}), or null for a fresh subscription
   */
  record Sub(String sid, String q, JsonObject in, @Nullable ResumeCursor cursor) implements ClientFrame {
    /** @throws IllegalArgumentException when the sid is not 1–64 characters or the name empty */
    public Sub {
      Frames.requireSid(Objects.requireNonNull(sid, "sid"));
      Frames.requireNonEmpty(Objects.requireNonNull(q, "q"), "q");
      Objects.requireNonNull(in, "in");
    }

    @Override
    public String t() {
      return "sub";
    }
  }

  /**
   * {@code unsub}: end one of the socket's own subscriptions.
   *
   * @param sid the subscription id, 1–64 characters
   */
  record Unsub(String sid) implements ClientFrame {
    /** @throws IllegalArgumentException when the sid is not 1–64 characters */
    public Unsub {
      Frames.requireSid(Objects.requireNonNull(sid, "sid"));
    }

    @Override
    public String t() {
      return "unsub";
    }
  }

  /**
   * {@code join}: join a channel topic; repeating it for a topic already held is the presence heartbeat.
   *
   * @param topic the topic, {@code <channel>.<param>…} (non-empty; the channel hub checks the declaration)
   * @param cursor where the client's records of the topic stand, or null for none
   * @param presence the member's presence meta, or null when the client takes no part in presence
   */
  record Join(String topic, @Nullable TopicCursor cursor, @Nullable JsonObject presence) implements ClientFrame {
    /** @throws IllegalArgumentException when the topic is empty */
    public Join {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
    }

    @Override
    public String t() {
      return "join";
    }
  }

  /**
   * {@code leave}: leave a channel topic.
   *
   * @param topic the topic (non-empty)
   */
  record Leave(String topic) implements ClientFrame {
    /** @throws IllegalArgumentException when the topic is empty */
    public Leave {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
    }

    @Override
    public String t() {
      return "leave";
    }
  }
}
