package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The outbound queue's bound: data frames past it are refused, one big frame enters an empty queue, and answers to
 * the client's own frames ({@code hello}, {@code refuse}) have room past it, so a big frame being written never costs
 * the client its heartbeat answer. The writer is held on a latch, so what is queued is exact.
 */
class OutboundQueueTest {

  /** How long a wait on the writer thread may take before the test fails. */
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch sending = new CountDownLatch(1);
  private final List<String> sent = new CopyOnWriteArrayList<>();

  private OutboundQueue heldQueue(long maxBytes) {
    return new OutboundQueue(maxBytes, frame -> {
      sending.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      sent.add(frame);
    }, "test-writer");
  }

  private static String frame(int bytes) {
    return "x".repeat(bytes);
  }

  @Test
  void anAnswerQueuesBehindABigFrameThatDataCannotPass() throws Exception {
    OutboundQueue q = heldQueue(1000);
    assertTrue(offer(q, frame(5000)), "one frame over the bound enters an empty queue");
    assertTrue(sending.await(10, TimeUnit.SECONDS));
    boolean data = offer(q, frame(10));
    boolean answer = offerAnswer(q, "hello");
    release.countDown();
    Await.until("both frames are sent", WAIT, () -> sent.size() == 2);
    assertAll(
        () -> assertFalse(data, "a data frame behind a frame over the bound is refused"),
        () -> assertTrue(answer, "the answer is not"),
        () -> assertEquals(List.of(5000, 5), sent.stream().map(String::length).toList(), "in order"));
    q.close();
  }

  /**
   * Closing the queue while its writer sends never interrupts the writer: a thread interrupted inside a socket
   * channel's write closes the channel, and the socket's close frame, sent right after, would fail (the client saw
   * 1006 instead of 1001 when a node stopped while a {@code hello} answer was being written).
   */
  @Test
  void closingWhileAFrameIsBeingSentLeavesTheSenderUninterruptedAndSendsNothingMore() throws Exception {
    AtomicBoolean interrupted = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    OutboundQueue q = new OutboundQueue(1000, frame -> {
      sending.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        interrupted.set(true);
      }
      interrupted.compareAndSet(false, Thread.currentThread().isInterrupted());
      sent.add(frame);
      done.countDown();
    }, "test-writer");
    assertTrue(offer(q, "first"));
    assertTrue(offer(q, "second"));
    assertTrue(sending.await(10, TimeUnit.SECONDS));
    q.close();
    release.countDown();
    assertTrue(done.await(10, TimeUnit.SECONDS));
    assertAll(
        () -> assertFalse(interrupted.get(), "the sending thread was not interrupted"),
        () -> assertEquals(List.of("first"), sent, "the frame in flight went out, the queued one did not"),
        () -> assertEquals(0, q.bytes(), "nothing counted as queued"),
        () -> assertFalse(offer(q, "third"), "a closed queue takes nothing"));
  }

  @Test
  void answersHaveRoomPastTheBoundAndNoMore() throws Exception {
    OutboundQueue q = heldQueue(1000);
    assertTrue(offer(q, frame(100)));
    assertTrue(sending.await(10, TimeUnit.SECONDS));
    assertTrue(offer(q, frame(900)), "data up to the bound");
    assertFalse(offer(q, frame(1)), "and not a byte past it");
    int room = (int) OutboundQueue.ANSWER_ROOM;
    assertTrue(offerAnswer(q, frame(room)), "answers up to the bound plus ANSWER_ROOM");
    assertFalse(offerAnswer(q, frame(1)), "and not a byte past that");
    assertEquals(1000 + room, q.bytes());
    release.countDown();
    Await.until("the queue is empty", WAIT, () -> q.bytes() == 0);
    assertTrue(offer(q, frame(10)), "drained, data is taken again");
    q.close();
    assertFalse(offerAnswer(q, "hello"), "a closed queue takes nothing");
  }

  /**
   * The writer runs only while the queue holds frames: after a burst no writer thread is left, the next offer starts
   * one, every frame goes out once and in order across bursts, and the drained task runs each time the queue empties.
   */
  @Test
  void theWriterLivesOnlyWhileFramesAreQueuedAndKeepsTheirOrderAcrossBursts() throws Exception {
    List<String> out = new CopyOnWriteArrayList<>();
    AtomicInteger drained = new AtomicInteger();
    Set<Thread> writers = ConcurrentHashMap.newKeySet();
    OutboundQueue q = new OutboundQueue(1 << 20, frame -> {
      writers.add(Thread.currentThread());
      out.add(frame);
    }, "burst-writer");
    LongSupplier alive = () -> writers.stream().filter(Thread::isAlive).count();
    q.onDrained(drained::incrementAndGet);
    List<String> expected = new ArrayList<>();
    for (int burst = 0; burst < 50; burst++) {
      for (int i = 0; i < 20; i++) {
        String f = burst + "." + i;
        expected.add(f);
        assertTrue(offer(q, f));
      }
      Await.until("every frame is out and no writer runs", WAIT,
          () -> out.size() == expected.size() && alive.getAsLong() == 0);
      assertTrue(drained.get() > burst, "drained ran when burst " + burst + " emptied the queue");
    }
    assertAll(
        () -> assertEquals(expected, out, "each frame once, in the order offered"),
        () -> assertEquals(0, alive.getAsLong(), "no writer thread is left once the queue is empty"),
        () -> assertTrue(writers.size() > 1, "each burst had a writer of its own"),
        () -> assertEquals(0, q.bytes()));
    q.close();
    assertFalse(offer(q, "late"), "a closed queue starts no writer");
    assertEquals(0, alive.getAsLong());
  }

  private static boolean offer(OutboundQueue q, String frame) {
    return q.offer(frame, FrameAssembler.utf8Length(frame));
  }

  private static boolean offerAnswer(OutboundQueue q, String frame) {
    return q.offerAnswer(frame, FrameAssembler.utf8Length(frame));
  }
}
