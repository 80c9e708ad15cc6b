/**
 * Runnel's wire contract ({@code docs/protocol.md}) as one model the sync node and the browser client share: WAL
 * positions ({@link io.runnel.protocol.Lsn}) and change positions ({@link io.runnel.protocol.Position}), records
 * ({@link io.runnel.protocol.WireRecord}) and the ops that move them ({@link io.runnel.protocol.Op}), a
 * subscription's cursor and a client's resume cursor ({@link io.runnel.protocol.Cursor},
 * {@link io.runnel.protocol.ResumeCursor}), a topic's cursor ({@link io.runnel.protocol.TopicCursor}), a presence
 * roster's member ({@link io.runnel.protocol.PresenceMember}) and a read's answer
 * ({@link io.runnel.protocol.ReadAnswer}). Each type checks its parts when built, so a value that exists is one the
 * contract allows. JDK only and TeaVM-safe: no regular expressions, no reflection.
 */
package io.runnel.protocol;
