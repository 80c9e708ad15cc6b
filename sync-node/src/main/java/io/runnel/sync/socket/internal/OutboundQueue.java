package io.runnel.sync.socket.internal;

import io.runnel.time.Threads;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One socket's outbound frames: a queue bounded in bytes, drained in order by the socket's own writer thread, so a
 * client that stops reading stalls only itself (Helidon's {@code WsSession.send} blocks with no timeout).
 *
 * <p>The writer is a virtual thread that runs only while the queue holds frames: the offer that finds the queue idle
 * starts it, and it ends once the queue is empty (after {@link #onDrained}), as a window's lane does. A writer parked
 * for the socket's whole life would keep a stack chunk that G1 moves to the old generation and that every later
 * park replaces; with 10,000 sockets each woken once a second those old-to-young references made the young pauses'
 * heap-root scan 100–400 ms (docs/performance.md). A writer that lives for one burst dies young.
 *
 * <p>Rules ({@code docs/protocol.md}, "Limits"): a frame that would push the queue past its bound is refused (the
 * caller drops it and marks the subscription desynced); one frame larger than the bound is admitted into an empty
 * queue, so a big snapshot can still be sent. An <em>answer</em> to the client's own frame (the {@code hello} reply, a
 * {@code refuse}) is never refused for the data queued ahead of it: {@code docs/protocol.md} promises an answer to
 * every {@code hello}, and a client that misses it takes the node for dead. Answers have {@link #ANSWER_ROOM} bytes of
 * room past the bound; the inbound frame rate keeps them small, and a client that lets even that room fill is not
 * reading. The writer records when its current send began, so a sweep can cut a send stuck past its deadline.
 */
public final class OutboundQueue {

  /** Bytes past the bound that answers may take: 64 KiB, some 600 {@code hello} replies. */
  public static final long ANSWER_ROOM = 64 * 1024;

  private final long maxBytes;
  private final Consumer<String> send;
  private final ThreadFactory writers;
  private final ReentrantLock lock = new ReentrantLock();
  /** A queued frame and its UTF-8 length, counted once when it is queued. */
  private record Queued(String frame, long bytes) {}

  private final Deque<Queued> frames = new ArrayDeque<>();
  private long bytes;
  private boolean closed;
  /** Whether a writer thread is running (started by an offer, ended by the drain that found the queue empty). */
  private boolean writing;
  private volatile long sendingSince;
  private Runnable onDrained = () -> { };

  /**
   * @param maxBytes the bound, in UTF-8 bytes of queued frames
   * @param send the blocking send of one text frame; an exception from it ends the writer
   * @param name the writer thread's name
   */
  public OutboundQueue(long maxBytes, Consumer<String> send, String name) {
    this.maxBytes = maxBytes;
    this.send = send;
    this.writers = Threads.virtualFactory(name);
  }

  /** Runs {@code task} on the writer whenever the queue becomes empty (to re-snapshot desynced subscriptions). */
  public void onDrained(Runnable task) {
    this.onDrained = task;
  }

  /**
   * Queues {@code frame}, {@code bytes} long in UTF-8 (the caller's count, {@link FrameAssembler#utf8Length}, so a
   * frame is measured once); false when it would pass the bound (or the queue is closed), and nothing was queued.
   */
  public boolean offer(String frame, long bytes) {
    return enqueue(frame, bytes, maxBytes);
  }

  /**
   * Queues {@code frame} ({@code bytes} as for {@link #offer}), an answer to a frame the client sent, behind whatever
   * is queued: false only when it would pass the bound plus {@link #ANSWER_ROOM} (or the queue is closed), and
   * nothing was queued.
   */
  public boolean offerAnswer(String frame, long bytes) {
    return enqueue(frame, bytes, maxBytes + ANSWER_ROOM);
  }

  private boolean enqueue(String frame, long size, long bound) {
    boolean start;
    lock.lock();
    try {
      if (closed || (!frames.isEmpty() && bytes + size > bound)) {
        return false;
      }
      frames.addLast(new Queued(frame, size));
      bytes += size;
      start = !writing;
      writing = true;
    } finally {
      lock.unlock();
    }
    if (start) {
      writers.newThread(this::drain).start();
    }
    return true;
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

  /** Stops the writer once the frame it is sending (if any) is sent; queued frames are discarded. */
  public void close() {
    lock.lock();
    try {
      closed = true;
      frames.clear();
      bytes = 0;
    } finally {
      lock.unlock();
    }
    // Never interrupt the writer: a thread interrupted inside a socket channel's write closes the channel
    // (java.nio.channels.InterruptibleChannel), so the socket's close frame, sent next, would fail and the client see
    // 1006. A sending writer ends after its frame; a stuck send is cut.
  }

  private void drain() {
    while (true) {
      Queued next;
      lock.lock();
      try {
        if (closed || frames.isEmpty()) {
          writing = false;
          return;
        }
        next = frames.peekFirst();
      } finally {
        lock.unlock();
      }
      sendingSince = System.nanoTime();
      try {
        send.accept(next.frame());
      } catch (RuntimeException e) {
        close();
        return;
      } finally {
        sendingSince = 0;
      }
      boolean empty;
      lock.lock();
      try {
        if (closed) {
          writing = false;
          return;
        }
        frames.pollFirst();
        bytes -= next.bytes();
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
