package io.runnel.sync.auth.internal;

import io.runnel.sync.auth.Grant;

/**
 * What a {@link GrantKeeper} needs of an open socket: the grant it holds now, and the two ways a re-decided grant
 * changes it. The keeper calls these from its own threads, one check at a time per socket.
 */
public interface GrantHolder {

  /** The grant the socket holds now. */
  Grant grant();

  /** Whether the socket is still open; a closed one is never checked again. */
  boolean open();

  /**
   * Switches the socket to {@code next}, a grant for the same actor id that has not expired. When its actor differs
   * from the current one, the socket decides each subscription and topic again for it ({@code refuse} for those its
   * policies now refuse, a fresh {@code snapshot} for the others); when it is the same actor, nothing is sent.
   */
  void regrant(Grant next);

  /** Closes the socket with 1008 (policy or expired grant), {@code reason} naming why; never blocks the caller. */
  void expire(String reason);
}
