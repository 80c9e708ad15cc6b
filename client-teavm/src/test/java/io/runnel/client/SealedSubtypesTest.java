package io.runnel.client;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.client.live.QueryState;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.port.HttpPort;
import io.runnel.dsl.Conflict;
import io.runnel.protocol.Op;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The subtypes of the sealed types client code reads with a chain of {@code instanceof} in place of a type switch
 * (TeaVM writes a switch out at length: {@code docs/client.md}, "Type switches in small helpers"), pinned: the compiler
 * no longer checks that those chains handle every subtype, so a new one fails here, naming the chains to extend.
 */
class SealedSubtypesTest {

  @Test
  void theChainsThatReadEachSealedTypeKnowEachOfItsSubtypes() {
    assertAll(
        () -> assertEquals(Set.of(ConnectionState.Connecting.class, ConnectionState.Online.class,
            ConnectionState.Offline.class, ConnectionState.Closed.class),
            Set.of(ConnectionState.class.getPermittedSubclasses()),
            "a new ConnectionState: extend PageClient.connection and Outbox.connection"),
        () -> assertEquals(Set.of(QueryState.Pending.class, QueryState.Ready.class, QueryState.Failed.class),
            Set.of(QueryState.class.getPermittedSubclasses()),
            "a new QueryState: extend PageClient.view and QuerySubscription.same"),
        () -> assertEquals(Set.of(MutationOutcome.Applied.class, MutationOutcome.Failed.class),
            Set.of(MutationOutcome.class.getPermittedSubclasses()),
            "a new MutationOutcome: extend PageClient.outcome"),
        () -> assertEquals(Set.of(HttpPort.Answered.class, HttpPort.NetworkFailed.class),
            Set.of(HttpPort.Outcome.class.getPermittedSubclasses()),
            "a new HTTP outcome: extend TicketEndpoint.ticket"),
        () -> assertEquals(Set.of(Conflict.ServerWins.class, Conflict.LastWriteWins.class, Conflict.Merge.class),
            Set.of(Conflict.class.getPermittedSubclasses()), "a new Conflict: extend Overlay's conflict rule"),
        () -> assertEquals(Set.of(Op.Place.class, Op.Update.class, Op.Del.class),
            Set.of(Op.class.getPermittedSubclasses()), "a new Op: extend QuerySubscription.patch"));
  }
}
