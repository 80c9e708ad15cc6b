package io.runnel.sync.auth.internal;

/**
 * What a node's grant checks came to ({@link GrantKeeper#stats}), counted since start.
 *
 * @param kept checks that kept the socket's actor (a refreshed expiry, or no refresh before the expiry)
 * @param changed checks that switched a socket to a changed actor (its subscriptions and topics decided again)
 * @param closed sockets closed with 1008: expired, revoked, re-decided for another actor, or past the grace
 * @param failures refreshes that threw (the socket kept its grant)
 */
public record GrantStats(long kept, long changed, long closed, long failures) {}
