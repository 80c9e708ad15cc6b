/**
 * Writes from the page as it sees them: each call is a {@link io.runnel.client.outbox.Mutation} that settles once
 * ({@link io.runnel.client.outbox.MutationOutcome}, {@link io.runnel.client.outbox.MutationError}), the outbox's
 * state ({@link io.runnel.client.outbox.OutboxState}), how a node's answer is read
 * ({@link io.runnel.client.outbox.Verdict}), and the credentials a call carries. The outbox is in
 * {@code io.runnel.client.outbox.internal}.
 */
package io.runnel.client.outbox;
