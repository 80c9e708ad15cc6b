package io.runnel.client.frame;

import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Nullable;
import java.util.List;
import java.util.Objects;

/** A frame the node sends the client ({@code PROTOCOL.md}, "Node → client"), as {@link FrameCodec} decodes it. */
public sealed interface ServerFrame permits ServerFrame.Hello, ServerFrame.Snapshot, ServerFrame.Patch,
    ServerFrame.Refuse, ServerFrame.Records, ServerFrame.Gap, ServerFrame.Event, ServerFrame.Presence,
    ServerFrame.PresenceDiff, ServerFrame.Reconnect {

  /**
   * The answer to every client {@code hello}.
   *
   * @param v the protocol version (1)
   * @param node the node's name
   * @param actor the actor's id, or null when anonymous
   * @param heartbeatMs how often the client beats, milliseconds (positive)
   * @param lsn the position through which every frame any change caused is queued on this socket
   * @param lagMs how far behind PostgreSQL the node is, milliseconds, or null before the node's first position
   * @param asOf the PostgreSQL time (epoch ms) through which the node holds every change, or null with {@code lagMs}
   * @param updateAvailable whether a newer client build is out, or null when the node does not know
   */
  record Hello(int v, String node, @Nullable String actor, long heartbeatMs, Position lsn, @Nullable Long lagMs,
      @Nullable Long asOf, @Nullable Boolean updateAvailable) implements ServerFrame {
    /** A hello without lag and asOf (a node that has no position yet). */
    public Hello(int v, String node, @Nullable String actor, long heartbeatMs, Position lsn,
        @Nullable Boolean updateAvailable) {
      this(v, node, actor, heartbeatMs, lsn, null, null, updateAvailable);
    }

    /** Checks the parts. */
    public Hello {
      if (v != FrameCodec.VERSION) {
        throw new IllegalArgumentException("hello.v is " + v + ", and this client speaks protocol version 1 only");
      }
      Objects.requireNonNull(node, "node");
      if (heartbeatMs <= 0) {
        throw new IllegalArgumentException("hello.heartbeatMs must be positive, not " + heartbeatMs);
      }
      Objects.requireNonNull(lsn, "lsn");
      if ((lagMs == null) != (asOf == null)) {
        throw new IllegalArgumentException("hello.lagMs and hello.asOf come together, not one alone");
      }
      if (lagMs != null && (lagMs < 0 || asOf <= 0)) {
        throw new IllegalArgumentException("hello.lagMs must be 0 or more and hello.asOf epoch ms, not " + lagMs
            + " and " + asOf);
      }
    }
  }

  /**
   * A subscription's whole list, in query order.
   *
   * @param sid the subscription
   * @param records the records in query order
   * @param cursor the position the list was read at
   */
  record Snapshot(String sid, List<WireRecord> records, Cursor cursor) implements ServerFrame {
    /** Checks and copies the parts. */
    public Snapshot {
      Objects.requireNonNull(sid, "sid");
      records = List.copyOf(records);
      Objects.requireNonNull(cursor, "cursor");
    }
  }

  /**
   * One committed transaction's visible effect on a subscription.
   *
   * @param sid the subscription
   * @param ops the ops, applied in sequence (empty only when answering a resume with nothing to replay)
   * @param writes the digests of the writes whose visible changes this patch carries
   * @param cursor the subscription's new position
   */
  record Patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) implements ServerFrame {
    /** Checks and copies the parts. */
    public Patch {
      Objects.requireNonNull(sid, "sid");
      ops = List.copyOf(ops);
      writes = List.copyOf(writes);
      Objects.requireNonNull(cursor, "cursor");
    }
  }

  /**
   * A refused {@code sub} or {@code join}, or (with neither) a frame the node could not read.
   *
   * @param sid the refused subscription, or null
   * @param topic the refused topic, or null
   * @param code the error code ({@code X_…}); kept as text, since a newer node may send a code this client lacks
   * @param cause what happened
   * @param fix what to do
   */
  record Refuse(@Nullable String sid, @Nullable String topic, String code, String cause, String fix)
      implements ServerFrame {
    /** Checks the parts. */
    public Refuse {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(fix, "fix");
    }
  }

  /**
   * A records channel's rows.
   *
   * @param topic the topic
   * @param epoch the run of {@code seq} numbering
   * @param seq the sequence number, from 1
   * @param lsn the position of the change carried
   * @param ops the ops
   * @param writes the write digests carried
   */
  record Records(String topic, String epoch, long seq, Position lsn, List<Op> ops, List<String> writes)
      implements ServerFrame {
    /** Checks and copies the parts. */
    public Records {
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(epoch, "epoch");
      Objects.requireNonNull(lsn, "lsn");
      ops = List.copyOf(ops);
      writes = List.copyOf(writes);
    }
  }

  /**
   * Records of a topic were lost: the channel's catch-up query must run again.
   *
   * @param topic the topic
   * @param epoch the epoch now in force
   */
  record Gap(String topic, String epoch) implements ServerFrame {
    /** Checks the parts are given. */
    public Gap {
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(epoch, "epoch");
    }
  }

  /**
   * A broadcast, delivered at most once.
   *
   * @param topic the topic
   * @param event the event name
   * @param payload any JSON
   */
  record Event(String topic, String event, JsonValue payload) implements ServerFrame {
    /** Checks the parts are given. */
    public Event {
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(payload, "payload");
    }
  }

  /**
   * A topic's whole roster, on join.
   *
   * @param topic the topic
   * @param members at most 256 members
   * @param total the count of members, those not listed included
   */
  record Presence(String topic, List<PresenceMember> members, long total) implements ServerFrame {
    /** Checks and copies the parts. */
    public Presence {
      Objects.requireNonNull(topic, "topic");
      members = List.copyOf(members);
    }
  }

  /**
   * Coalesced roster changes.
   *
   * @param topic the topic
   * @param joins members that joined (or changed their meta)
   * @param leaves keys of members that left
   * @param total the count of members now
   */
  record PresenceDiff(String topic, List<PresenceMember> joins, List<String> leaves, long total) implements ServerFrame {
    /** Checks and copies the parts. */
    public PresenceDiff {
      Objects.requireNonNull(topic, "topic");
      joins = List.copyOf(joins);
      leaves = List.copyOf(leaves);
    }
  }

  /**
   * The node is draining: reconnect after {@code delayMs}.
   *
   * @param delayMs milliseconds to wait (zero or more)
   * @param reason why, for logs
   */
  record Reconnect(long delayMs, String reason) implements ServerFrame {
    /** Checks the parts. */
    public Reconnect {
      if (delayMs < 0) {
        throw new IllegalArgumentException("reconnect.delayMs must not be negative, not " + delayMs);
      }
      Objects.requireNonNull(reason, "reason");
    }
  }
}
