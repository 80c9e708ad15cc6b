package io.runnel.sync.socket.internal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.runnel.sync.auth.AuthRefusedException;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Credentials;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.auth.Tickets;
import io.runnel.sync.http.Origins;
import io.runnel.sync.http.internal.ErrorBodies;
import io.runnel.wire.ErrorCode;
import java.time.Clock;

/**
 * The decision before a {@link SyncSocket}'s upgrade: the node still takes sockets, the socket holds a node slot (the
 * {@link UpgradeGate}'s, or one reserved here), the origin is admitted, the credentials or ticket give a grant, and
 * the grant's actor has a socket slot left. Anything refused throws the HTTP refusal the upgrade answers.
 *
 * <p>Invariant: a node slot reserved here goes back on every way out but a decided grant: a refusal, and anything
 * else that escapes (an {@link Error} included); a slot the gate reserved is the gate's to give back.
 */
final class SocketUpgrade {

  /** A decided upgrade: the socket's grant and its reservations, not yet handed over. */
  record Decided(Grant grant, Admissions.Admission admission) {}

  private final Drain drain;
  private final Admissions admissions;
  private final Origins origins;
  private final Authenticator authenticator;
  private final Tickets tickets;
  private final Clock clock;
  private final SocketMeters meters;

  SocketUpgrade(Drain drain, Admissions admissions, Origins origins, Authenticator authenticator, Tickets tickets,
      Clock clock, SocketMeters meters) {
    this.drain = drain;
    this.admissions = admissions;
    this.origins = origins;
    this.authenticator = authenticator;
    this.tickets = tickets;
    this.clock = clock;
    this.meters = meters;
  }

  /** Decides the upgrade of {@code prologue} with {@code headers}, or throws the refusal it answers. */
  Decided decide(HttpPrologue prologue, Headers headers) {
    drain.admitUpgrade();
    Admissions.Admission gated = UpgradeGate.current();
    // Without the gate (it runs on every upgrade Helidon routes), the socket reserves its own node slot.
    Admissions.Admission a = gated != null ? gated : reserveSlot();
    boolean decided = false;
    try {
      Grant grant = grant(prologue, headers);
      a.actor(grant.actor());
      decided = true;
      return new Decided(grant, a);
    } catch (Admissions.AdmissionException e) {
      meters.refused(e.code().name());
      throw ErrorBodies.refusal(e, Status.create(e.status()), e.retryAfterSeconds());
    } finally {
      // A refusal, or anything else that escaped (an Error included): a slot reserved here goes back (the gate
      // gives back its own).
      if (!decided && gated == null) {
        a.release();
      }
    }
  }

  private Admissions.Admission reserveSlot() {
    try {
      return admissions.admit(null);
    } catch (Admissions.AdmissionException e) {
      meters.refused(e.code().name());
      throw ErrorBodies.refusal(e, Status.create(e.status()), e.retryAfterSeconds());
    }
  }

  /** The origin check and the identity: answers the grant, or throws the refusal the upgrade answers. */
  private Grant grant(HttpPrologue prologue, Headers headers) {
    String origin = headers.first(HeaderNames.ORIGIN).orElse(null);
    if (!origins.admits(origin, headers.first(HeaderNames.HOST).orElse(null))) {
      meters.refused(ErrorCode.X_SOCKET_ORIGIN_REFUSED.name());
      throw ErrorBodies.refusal(ErrorBodies.originRefused(origin, headers.first(HeaderNames.HOST).orElse("?"),
          origins), Status.FORBIDDEN_403, false);
    }
    String ticket = prologue.query().contains("ticket") ? prologue.query().get("ticket") : null;
    String fix = "Send Authorization: Bearer <token>, the runnel_session cookie, or a ticket.";
    try {
      if (ticket == null) {
        return AuthRefusedException.grant(authenticator, Credentials.of(headers, null), clock.millis(),
            fix);
      }
      Grant g;
      try {
        g = tickets.redeem(ticket);
      } catch (Exception e) {
        throw AuthRefusedException.unavailable(e);
      }
      if (g == null) {
        meters.refused(ErrorCode.X_TICKET_INVALID.name());
        throw ErrorBodies.refusal(new NodeException(ErrorCode.X_TICKET_INVALID,
            "The ticket is unknown, expired or already used.", "Get a new ticket from POST /v1/tickets."),
            Status.UNAUTHORIZED_401, false);
      }
      if (g.expiresAt() <= clock.millis()) {
        throw AuthRefusedException.unauthenticated("The ticket's grant has expired.", fix);
      }
      return g;
    } catch (AuthRefusedException e) {
      meters.refused(e.code().name());
      throw ErrorBodies.refusal(e, Status.create(e.status()), e.retryAfterSeconds() > 0);
    }
  }
}
