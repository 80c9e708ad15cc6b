package io.runnel.protocol;

import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A frame a node sends to a client ({@code docs/protocol.md}, "Socket frames", node to client), written by
 * {@link FrameEncoder} and read by {@link FrameDecoder#server}. Each record validates its values, so a frame that
 * exists matches the contract.
 */
public sealed interface ServerFrame
    permits ServerFrame.Hello, ServerFrame.Snapshot, ServerFrame.Patch, ServerFrame.Refuse,
        ServerFrame.Records, ServerFrame.Gap, ServerFrame.Event, ServerFrame.Presence,
        ServerFrame.PresenceDiff, ServerFrame.Reconnect {

  /** The frame's kind, its {@code t} field. */
  String t();

  /**
   * {@code hello}: the answer to every client {@code hello}.
   *
   * @param v the protocol version the node speaks
   * @param node the node's id (non-empty)
   * @param actor the actor's id, or null for an anonymous actor (written as JSON null)
   * @param heartbeatMs how often the client says {@code hello}, milliseconds (positive)
   * @param lsn the position through which every change's frames are queued on this socket
   * @param lagMs how far behind PostgreSQL the node is, milliseconds (now minus {@code asOf}), or null before the
   *     node's first position (both fields are then left out)
   * @param asOf the PostgreSQL time (epoch ms) through which the node holds every change, or null with {@code lagMs}
   * @param updateAvailable whether a newer client build is deployed, or null to leave the field out
   */
  record Hello(int v, String node, @Nullable String actor, long heartbeatMs, Position lsn, @Nullable Long lagMs,
      @Nullable Long asOf, @Nullable Boolean updateAvailable) implements ServerFrame {
    /**
     * A hello without lag and asOf (a node that has no position yet).
     *
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public Hello(int v, String node, @Nullable String actor, long heartbeatMs, Position lsn,
        @Nullable Boolean updateAvailable) {
      this(v, node, actor, heartbeatMs, lsn, null, null, updateAvailable);
    }

    /**
     * @throws IllegalArgumentException for an empty node id, a heartbeat below 1 ms, a negative lag,
     *     an asOf not above 0, or only one of lag and asOf
     */
    public Hello {
      Frames.requireNonEmpty(Objects.requireNonNull(node, "node"), "node");
      if (heartbeatMs < 1) {
        throw new IllegalArgumentException("heartbeatMs is positive, not " + heartbeatMs);
      }
      Objects.requireNonNull(lsn, "lsn");
      if ((lagMs == null) != (asOf == null)) {
        throw new IllegalArgumentException("lagMs and asOf come together, not " + lagMs + " and " + asOf);
      }
      if (lagMs != null && (lagMs < 0 || asOf <= 0)) {
        throw new IllegalArgumentException("lagMs is 0 or more and asOf is epoch ms, not " + lagMs + " and " + asOf);
      }
    }

    @Override
    public String t() {
      return "hello";
    }
  }

  /**
   * {@code snapshot}: the subscription's whole list, replacing what the client held.
   *
   * @param sid the subscription id
   * @param records the list in query order
   * @param cursor where the list stands
   */
  record Snapshot(String sid, List<WireRecord> records, Cursor cursor) implements ServerFrame {
    /**
     * Copies the records.
     *
     * @throws IllegalArgumentException for a malformed sid
     */
    public Snapshot {
      Frames.requireSid(Objects.requireNonNull(sid, "sid"));
      records = List.copyOf(records);
      Objects.requireNonNull(cursor, "cursor");
    }

    @Override
    public String t() {
      return "snapshot";
    }
  }

  /**
   * {@code patch}: one committed transaction's visible effect on a subscription, ops applied in sequence. Empty
   * {@code ops} are only ever a resume's sole answer (the caller keeps that rule; the frame cannot know it).
   *
   * @param sid the subscription id
   * @param ops the steps, in order
   * @param writes the write digests whose visible changes the ops carry
   * @param cursor where the list stands after the ops
   */
  record Patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) implements ServerFrame {
    /**
     * Copies the lists.
     *
     * @throws IllegalArgumentException for a malformed sid
     */
    public Patch {
      Frames.requireSid(Objects.requireNonNull(sid, "sid"));
      ops = List.copyOf(ops);
      writes = List.copyOf(writes);
      Objects.requireNonNull(cursor, "cursor");
    }

    @Override
    public String t() {
      return "patch";
    }
  }

  /**
   * {@code refuse}: a refused {@code sub} (with {@code sid}), a refused {@code join} (with {@code topic}), or a frame
   * the node could not read (with neither). Build it from the error with {@link #of(RunnelException, String,
   * String)} or {@link #of(FrameException)}.
   *
   * @param sid the refused subscription's id, or null (the field is then left out)
   * @param topic the refused join's topic, or null (the field is then left out)
   * @param code the error code: one of {@code ErrorCode}'s, or a mutator's own ({@code X_POST_NOT_FOUND})
   * @param cause what happened
   * @param fix what to do
   */
  record Refuse(@Nullable String sid, @Nullable String topic, String code, String cause, String fix)
      implements ServerFrame {
    /** @throws IllegalArgumentException when both sid and topic are given, or the code is not {@code X_…} */
    public Refuse {
      if (sid != null && topic != null) {
        throw new IllegalArgumentException("A refuse names a sid or a topic, not both");
      }
      if (sid != null) {
        Frames.requireSid(sid);
      }
      if (topic != null) {
        Frames.requireNonEmpty(topic, "topic");
      }
      if (!Frames.isCode(Objects.requireNonNull(code, "code"))) {
        throw new IllegalArgumentException("An error code is X_ then A-Z, 0-9 and _, not '" + code + "'");
      }
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(fix, "fix");
    }

    /**
     * The refusal of {@code error}, tagged with a sid, a topic or neither.
     *
     * @throws IllegalArgumentException when both are given
     */
    public static Refuse of(RunnelException error, @Nullable String sid, @Nullable String topic) {
      return new Refuse(sid, topic, error.code().name(), error.cause(), error.fix());
    }

    /** The refusal of a frame the codec could not decode, tagged with the sid or topic it could still read. */
    public static Refuse of(FrameException error) {
      return of(error, error.sid(), error.topic());
    }

    @Override
    public String t() {
      return "refuse";
    }
  }

  /**
   * {@code records}: a records channel's rows.
   *
   * @param topic the topic
   * @param epoch the topic's sequence incarnation (opaque, non-empty)
   * @param seq this frame's number in the epoch, from 1
   * @param lsn the position of the change the ops carry
   * @param ops the steps, in order
   * @param writes the write digests whose changes the ops carry
   */
  record Records(String topic, String epoch, long seq, Position lsn, List<Op> ops, List<String> writes)
      implements ServerFrame {
    /**
     * Copies the lists.
     *
     * @throws IllegalArgumentException for an empty topic or epoch, a bad seq
     */
    public Records {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
      Frames.requireNonEmpty(Objects.requireNonNull(epoch, "epoch"), "epoch");
      if (seq < 1) {
        throw new IllegalArgumentException("A records frame's seq counts from 1, not " + seq);
      }
      Objects.requireNonNull(lsn, "lsn");
      ops = List.copyOf(ops);
      writes = List.copyOf(writes);
    }

    @Override
    public String t() {
      return "records";
    }
  }

  /**
   * {@code gap}: records of a topic were lost; the client re-runs the channel's catch-up query.
   *
   * @param topic the topic
   * @param epoch the epoch the next records belong to
   */
  record Gap(String topic, String epoch) implements ServerFrame {
    /** @throws IllegalArgumentException for an empty topic or epoch */
    public Gap {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
      Frames.requireNonEmpty(Objects.requireNonNull(epoch, "epoch"), "epoch");
    }

    @Override
    public String t() {
      return "gap";
    }
  }

  /**
   * {@code event}: a broadcast to a topic's members, delivered at most once.
   *
   * @param topic the topic
   * @param event the event's name (non-empty)
   * @param payload any JSON value, written as is
   */
  record Event(String topic, String event, JsonValue payload) implements ServerFrame {
    /** @throws IllegalArgumentException for an empty topic or event name */
    public Event {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
      Frames.requireNonEmpty(Objects.requireNonNull(event, "event"), "event");
      Objects.requireNonNull(payload, "payload");
    }

    @Override
    public String t() {
      return "event";
    }
  }

  /**
   * {@code presence}: a topic's whole roster, sent on join.
   *
   * @param topic the topic
   * @param members at most 256 members
   * @param total how many members the topic has, listed or not
   */
  record Presence(String topic, List<PresenceMember> members, int total) implements ServerFrame {
    /**
     * Copies the members.
     *
     * @throws IllegalArgumentException for more than 256 members or a total below their count
     */
    public Presence {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
      members = List.copyOf(members);
      if (members.size() > Frames.MAX_PRESENCE_MEMBERS) {
        throw new IllegalArgumentException("A roster lists at most " + Frames.MAX_PRESENCE_MEMBERS + " members, not "
            + members.size());
      }
      if (total < members.size()) {
        throw new IllegalArgumentException("total " + total + " is below the " + members.size() + " members listed");
      }
    }

    @Override
    public String t() {
      return "presence";
    }
  }

  /**
   * {@code presence-diff}: coalesced roster changes.
   *
   * @param topic the topic
   * @param joins members who joined (or changed their meta)
   * @param leaves the keys of members who left
   * @param total how many members the topic has after the changes
   */
  record PresenceDiff(String topic, List<PresenceMember> joins, List<String> leaves, int total)
      implements ServerFrame {
    /**
     * Copies the lists.
     *
     * @throws IllegalArgumentException for an empty topic or a negative total
     */
    public PresenceDiff {
      Frames.requireNonEmpty(Objects.requireNonNull(topic, "topic"), "topic");
      joins = List.copyOf(joins);
      leaves = List.copyOf(leaves);
      Frames.requireNonNegative(total, "total");
    }

    @Override
    public String t() {
      return "presence-diff";
    }
  }

  /**
   * {@code reconnect}: the node is draining; the client reconnects after the delay.
   *
   * @param delayMs how long to wait, milliseconds (at least 0)
   * @param reason why, for logs ({@code "drain"})
   */
  record Reconnect(long delayMs, String reason) implements ServerFrame {
    /** @throws IllegalArgumentException for a negative delay */
    public Reconnect {
      Frames.requireNonNegative(delayMs, "delayMs");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String t() {
      return "reconnect";
    }
  }
}
