/**
 * Runnel's wire contract ({@code docs/protocol.md}) as one model the sync node and the browser client share: WAL
 * positions ({@link io.runnel.protocol.Lsn}) and change positions ({@link io.runnel.protocol.Position}). JDK only
 * and TeaVM-safe: no regular expressions, no reflection.
 */
package io.runnel.protocol;
