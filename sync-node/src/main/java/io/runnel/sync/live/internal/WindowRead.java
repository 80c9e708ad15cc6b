package io.runnel.sync.live.internal;

import io.runnel.dsl.Row;
import io.runnel.protocol.Lsn;
import java.util.List;

/**
 * What one window read returned: the rows in query order, whether there are no more matching rows than these, and
 * the read's MVCC snapshot with the WAL insert position taken right after it (invariant 3b).
 *
 * @param rows the rows, in query order
 * @param complete whether the read came back short of its limit
 * @param snapshot the read's snapshot
 * @param position the WAL insert position taken after the snapshot (P)
 */
record WindowRead(List<Row> rows, boolean complete, XidSnapshot snapshot, Lsn position) {}
