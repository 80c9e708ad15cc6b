/**
 * Live windows as an app sees them: their counters ({@link io.runnel.sync.live.LiveStats}). The windows themselves
 * are in {@code io.runnel.sync.live.internal}.
 */
package io.runnel.sync.live;
