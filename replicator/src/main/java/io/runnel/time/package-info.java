/**
 * Time and threads for library code: {@link io.runnel.time.Sleeper}, through which every pause goes so tests drive
 * time instead of waiting for it, and {@link io.runnel.time.Threads}, the one place threads and executors are made.
 */
package io.runnel.time;
