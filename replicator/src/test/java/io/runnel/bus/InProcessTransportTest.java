package io.runnel.bus;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.wire.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class InProcessTransportTest {

  @Test
  void subjectsEncodeTheirTokensAndPatternsMatchAsNatsDoes() {
    assertAll(
        () -> assertEquals("runnel.changes.public.posts", Subjects.changes("public", "posts")),
        () -> assertEquals("runnel.changes.my%20schema.a%2Eb%2A%3E", Subjects.changes("my schema", "a.b*>")),
        () -> assertTrue(Subjects.matches("runnel.changes.>", "runnel.changes.public.posts")),
        () -> assertFalse(Subjects.matches("runnel.changes.>", "runnel.changes")),
        () -> assertTrue(Subjects.matches("runnel.*.public.*", "runnel.changes.public.posts")),
        () -> assertFalse(Subjects.matches("runnel.*.public", "runnel.changes.public.posts")),
        () -> assertThrows(IllegalArgumentException.class, () -> Subjects.token("")));
  }

  @Test
  void aPatternSplitOnceMatchesExactlyAsSplittingBothOnEveryPublishDid() {
    String[] parts = {"a", "b", "*", ">", "", "runnel", "ab"};
    Random r = new Random(7);
    for (int n = 0; n < 20_000; n++) {
      String pattern = join(r, parts);
      String subject = join(r, parts);
      assertEquals(splitMatches(pattern, subject), Subjects.matches(Subjects.tokens(pattern), subject),
          "pattern '" + pattern + "', subject '" + subject + "'");
    }
    assertAll(
        () -> assertTrue(Subjects.matches(Subjects.tokens("a.>"), "a."), "an empty last token is a token"),
        () -> assertFalse(Subjects.matches(Subjects.tokens("a.b"), "a.bc")),
        () -> assertFalse(Subjects.matches(Subjects.tokens("a.bc"), "a.b")),
        () -> assertFalse(Subjects.matches(Subjects.tokens("a.b"), "a.b.c")),
        () -> assertTrue(Subjects.matches(Subjects.tokens("a.>.c"), "a.>.c"), "a '>' not last is literal"));
  }

  private static String join(Random r, String[] parts) {
    StringBuilder b = new StringBuilder();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : ".").append(parts[r.nextInt(parts.length)]);
    }
    return b.toString();
  }

  /** The rule as first written: split both at every dot, then compare token by token. */
  private static boolean splitMatches(String pattern, String subject) {
    String[] p = pattern.split("\\.", -1);
    String[] s = subject.split("\\.", -1);
    for (int i = 0; i < p.length; i++) {
      if (p[i].equals(">") && i == p.length - 1) {
        return s.length > i;
      }
      if (i >= s.length || (!p[i].equals("*") && !p[i].equals(s[i]))) {
        return false;
      }
    }
    return p.length == s.length;
  }

  @Test
  void aSubscriptionReceivesMatchingMessagesInPublishOrder() throws Exception {
    try (InProcessTransport bus = InProcessTransport.create()) {
      List<String> got = new ArrayList<>();
      CountDownLatch done = new CountDownLatch(1000);
      bus.subscribe("runnel.changes.public.*", m -> {
        got.add(new String(m.payload(), StandardCharsets.UTF_8));
        done.countDown();
      });
      for (int i = 0; i < 1000; i++) {
        bus.publish(Subjects.changes("public", "t" + (i % 3)), Integer.toString(i).getBytes(StandardCharsets.UTF_8));
        bus.publish(Subjects.changes("other", "t"), "x".getBytes(StandardCharsets.UTF_8));
      }
      bus.flush(Duration.ofSeconds(1));
      assertTrue(done.await(10, TimeUnit.SECONDS));
      for (int i = 0; i < 1000; i++) {
        assertEquals(Integer.toString(i), got.get(i), "message " + i + " in order, other schemas filtered out");
      }
    }
  }

  @Test
  void aStuckSubscriberPushesBackWithACodedRefusalInsteadOfBufferingWithoutBound() throws Exception {
    try (InProcessTransport bus = InProcessTransport.create(2, Duration.ofMillis(50))) {
      CountDownLatch release = new CountDownLatch(1);
      bus.subscribe(Subjects.ALL_CHANGES, m -> {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      String subject = Subjects.changes("public", "t");
      TransportUnavailableException refused = assertThrows(TransportUnavailableException.class, () -> {
        for (int i = 0; i < 10; i++) {
          bus.publish(subject, new byte[] {1});
        }
      });
      release.countDown();
      assertAll(
          () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, refused.code()),
          () -> assertTrue(refused.cause().contains("behind"), refused.cause()));
    }
  }

  @Test
  void aClosedBusRefusesAtOnce() {
    InProcessTransport bus = InProcessTransport.create();
    bus.close();
    assertAll(
        () -> assertThrows(TransportUnavailableException.class,
            () -> bus.publish(Subjects.changes("public", "t"), new byte[0])),
        () -> assertThrows(TransportUnavailableException.class, () -> bus.flush(Duration.ofSeconds(1))),
        () -> assertThrows(TransportUnavailableException.class, () -> bus.subscribe(">", m -> { })));
  }

  @Test
  void aHandlerThatThrowsIsCountedAndDeliveryGoesOn() throws Exception {
    try (InProcessTransport bus = InProcessTransport.create()) {
      CountDownLatch second = new CountDownLatch(1);
      bus.subscribe(">", m -> {
        if (m.payload()[0] == 1) {
          throw new IllegalStateException("boom");
        }
        second.countDown();
      });
      bus.publish("a", new byte[] {1});
      bus.publish("a", new byte[] {2});
      assertTrue(second.await(10, TimeUnit.SECONDS));
      assertEquals(1, bus.handlerFailures());
    }
  }
}
