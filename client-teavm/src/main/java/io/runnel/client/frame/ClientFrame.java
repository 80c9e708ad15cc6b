package io.runnel.client.frame;

import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.TopicCursor;
import io.runnel.wire.JsonObject;
import io.runnel.wire.Nullable;
import java.util.Objects;

/** A frame the client sends the node ({@code PROTOCOL.md}, "Client → node"), as {@link FrameCodec} encodes it. */
public sealed interface ClientFrame permits ClientFrame.Hello, ClientFrame.Sub, ClientFrame.Unsub,
    ClientFrame.Join, ClientFrame.Leave {

  /**
   * The first frame and the heartbeat beat.
   *
   * @param build the client build's label, or null
   */
  record Hello(@Nullable String build) implements ClientFrame {}

  /**
   * Subscribe to a live query, or resume one.
   *
   * @param sid the subscription id, 1–64 characters, unique per socket
   * @param query the live query's name
   * @param input the query's input
   * @param resume where to resume from, or null for a snapshot
   */
  record Sub(String sid, String query, JsonObject input, @Nullable ResumeCursor resume) implements ClientFrame {
    /** Checks the parts. */
    public Sub {
      Objects.requireNonNull(sid, "sid");
      if (sid.isEmpty() || sid.length() > 64) {
        throw new IllegalArgumentException("A sid has 1–64 characters, not " + sid.length());
      }
      Objects.requireNonNull(query, "query");
      Objects.requireNonNull(input, "input");
    }
  }

  /**
   * End a subscription.
   *
   * @param sid the subscription id
   */
  record Unsub(String sid) implements ClientFrame {
    /** Checks the sid is given. */
    public Unsub {
      Objects.requireNonNull(sid, "sid");
    }
  }

  /**
   * Join a channel topic (repeated as the presence heartbeat).
   *
   * @param topic the topic
   * @param cursor where to resume its records from, or null
   * @param presence the presence meta, or null
   */
  record Join(String topic, @Nullable TopicCursor cursor, @Nullable JsonObject presence) implements ClientFrame {
    /** Checks the topic is given. */
    public Join {
      Objects.requireNonNull(topic, "topic");
    }
  }

  /**
   * Leave a channel topic.
   *
   * @param topic the topic
   */
  record Leave(String topic) implements ClientFrame {
    /** Checks the topic is given. */
    public Leave {
      Objects.requireNonNull(topic, "topic");
    }
  }
}
