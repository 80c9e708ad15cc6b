/**
 * Live windows: one shared read per query, input and tenant, kept up to date from the bus by matchers and a routing
 * index, turning each committed transaction into one patch for the window's subscribers.
 */
package io.runnel.sync.live;
