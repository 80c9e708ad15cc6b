package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The token bucket on a clock the test moves: burst, continuous refill, the wait it names, refunds, fullness. */
class TokenBucketTest {

  @Test
  void aFullBucketGivesItsBurstThenNamesTheWaitAndRefillsContinuously() {
    TokenBucket b = new TokenBucket(4, 3, TimeUnit.MILLISECONDS, 1_000);
    long first = b.take(1_000);
    long second = b.take(1_000);
    long third = b.take(1_000);
    long fourth = b.take(1_000);
    long sameInstant = b.take(1_000);
    long afterAQuarterSecond = b.take(1_250);
    assertAll(
        () -> assertEquals(0, first + second + third, "the burst of three"),
        () -> assertEquals(250, fourth, "four a second: the next token is 250 ms away"),
        () -> assertEquals(250, sameInstant, "a clock that does not move refills nothing"),
        () -> assertEquals(0, afterAQuarterSecond));
  }

  @Test
  void aRefundGivesATokenBackButNeverPastTheBurstAndAQuietBucketIsFull() {
    TokenBucket b = new TokenBucket(64, 2, TimeUnit.NANOSECONDS, 0);
    b.take(0);
    b.take(0);
    b.refund();
    long afterRefund = b.take(0);
    boolean fullNow = b.full(0);
    boolean fullLater = b.full(TimeUnit.SECONDS.toNanos(1));
    b.refund();
    long one = b.take(TimeUnit.SECONDS.toNanos(1));
    long two = b.take(TimeUnit.SECONDS.toNanos(1));
    long three = b.take(TimeUnit.SECONDS.toNanos(1));
    assertAll(
        () -> assertEquals(0, afterRefund, "the refunded token"),
        () -> assertFalse(fullNow),
        () -> assertTrue(fullLater, "64 a second refill two tokens well within a second"),
        () -> assertEquals(0, one + two, "a refund on a full bucket adds nothing past the burst"),
        () -> assertTrue(three > 0));
  }
}
