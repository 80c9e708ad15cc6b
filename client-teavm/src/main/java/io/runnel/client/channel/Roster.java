package io.runnel.client.channel;

import io.runnel.protocol.PresenceMember;
import java.util.List;

/**
 * A topic's presence roster as the page holds it: the last {@code presence} frame with every {@code presence-diff}
 * since applied.
 *
 * @param members the members the node listed (at most 256), in the order they were first heard
 * @param total the count of members, those not listed included
 */
public record Roster(List<PresenceMember> members, long total) {

  /** Copies the members. */
  public Roster {
    members = List.copyOf(members);
  }
}
