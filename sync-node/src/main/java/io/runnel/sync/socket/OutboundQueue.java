package io.runnel.sync.socket;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One socket's outbound frames: a queue bounded in bytes, drained in order by the socket's own writer thread, so a
 * client that stops reading stalls only itself (Helidon's {@code WsSession.send} blocks with no timeout).
 *
 * <p>Rules ({@code PROTOCOL.md}, "Limits"): a frame that would push the queue past its bound is refused (the caller
 * drops it and marks the subscription desynced); one frame larger than the bound is admitted into an empty queue,
 * so a big snapshot can still be sent. The writer records when its current send began, so a sweep can cut a send
 * stuck past its deadline.
 */
public final class OutboundQueue {

  private final long maxBytes;
  private final Consumer<String> send;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition nonEmpty = lock.newCondition();
  private final Deque<String> frames = new ArrayDeque<>();
  private long bytes;
  private boolean closed;
  private volatile long sendingSince;
  private final Thread writer;
  private Runnable onDrained = () -> { };

  /**
   * @param maxBytes the bound, in UTF-8 bytes of queued frames
   * @param send the blocking send of one text frame; an exception from it ends the writer
   * @param name the writer thread's name
   */
  public OutboundQueue(long maxBytes, Consumer<String> send, String name) {
    this.maxBytes = maxBytes;
    this.send = send;
    this.writer = Thread.ofVirtual().name(name).start(this::drain);
  }

  /** Runs {@code task} on the writer whenever the queue becomes empty (to re-snapshot desynced subscriptions). */
  public void onDrained(Runnable task) {
    this.onDrained = task;
  }

  /** Queues {@code frame}; false when it would pass the bound (or the queue is closed), and nothing was queued. */
  public boolean offer(String frame) {
    long size = frame.getBytes(StandardCharsets.UTF_8).length;
    lock.lock();
    try {
      if (closed || (!frames.isEmpty() && bytes + size > maxBytes)) {
        return false;
      }
      frames.addLast(frame);
      bytes += size;
      nonEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes queued now. */
  public long bytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  /** When the current send began (System.nanoTime), or 0 when the writer is not sending. */
  public long sendingSince() {
    return sendingSince;
  }

  /** Stops the writer; queued frames are discarded. */
  public void close() {
    lock.lock();
    try {
      closed = true;
      frames.clear();
      bytes = 0;
      nonEmpty.signal();
    } finally {
      lock.unlock();
    }
    writer.interrupt();
  }

  private void drain() {
    while (true) {
      String frame;
      lock.lock();
      try {
        while (frames.isEmpty() && !closed) {
          nonEmpty.awaitUninterruptibly();
        }
        if (closed) {
          return;
        }
        frame = frames.peekFirst();
      } finally {
        lock.unlock();
      }
      sendingSince = System.nanoTime();
      try {
        send.accept(frame);
      } catch (RuntimeException e) {
        close();
        return;
      } finally {
        sendingSince = 0;
      }
      boolean empty;
      lock.lock();
      try {
        frames.pollFirst();
        bytes -= frame.getBytes(StandardCharsets.UTF_8).length;
        empty = frames.isEmpty();
      } finally {
        lock.unlock();
      }
      if (empty) {
        onDrained.run();
      }
    }
  }
}
