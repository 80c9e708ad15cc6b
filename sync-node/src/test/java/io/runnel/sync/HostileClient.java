package io.runnel.sync;

import io.runnel.testing.Await;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.EOFException;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One hostile client: a raw socket as one actor, sending {@code budget} messages of {@link HostileFrames} moves,
 * paced near the node's frame rate (60 a second, burst 200) except for its floods, which ignore it. A second thread
 * reads everything the node sends and tallies it: kinds of frames, refusal codes, close codes, frames that are no
 * well-formed node frame. When the node ends the connection (a flood past the rate, a frame over the limit, a frame
 * that breaks RFC 6455), the client reconnects as the same actor, backing off while the node refuses the upgrade,
 * and goes on. At the end it closes, politely (a close frame) or not, as its random says.
 *
 * <p>Tally keys: {@code sent:<move>}, {@code messages}, {@code node:<t>}, {@code refuse:<code>}, {@code close:<code>},
 * {@code ended:<how>}, {@code upgrade:<status>}, {@code bad:<what>}.
 */
final class HostileClient implements Callable<Void> {

  private static final double RATE = 60;
  private static final double BURST = 200;

  private final int port;
  private final @Nullable String token;
  private final HostileFrames moves;
  private final long seed;
  private final int budget;
  private final Tally tally;
  private double tokens = BURST;
  private long tokensAt = System.nanoTime();
  private @Nullable RawSocket socket;
  private @Nullable Thread reader;
  private volatile boolean ended;

  /**
   * @param port the node's port
   * @param token the actor's token ({@code user@org}), or null for the anonymous actor
   * @param seed the seed of this client's moves
   * @param budget how many messages to send
   * @param tally where to count
   */
  HostileClient(int port, @Nullable String token, long seed, int budget, Tally tally) {
    this.port = port;
    this.token = token;
    this.moves = new HostileFrames(seed);
    this.seed = seed;
    this.budget = budget;
    this.tally = tally;
  }

  @Override
  public Void call() throws Exception {
    connect();
    int sent = 0;
    while (sent < budget) {
      HostileFrames.Move move = moves.next();
      pace(move);
      if (ended) {
        connect();
      }
      try {
        write(move);
      } catch (IOException e) {
        tally.add("ended:write failed");
        connect();
      }
      sent += move.messages();
      tally.add("messages", move.messages());
      tally.add("sent:" + kind(move), move.messages());
    }
    RawSocket s = socket;
    if (seed % 2 == 0) {
      try {
        s.write(RawSocket.frame(RawSocket.CLOSE, true, new byte[] {0x03, (byte) 0xe8}));
      } catch (IOException e) {
        // already gone
      }
    }
    s.close();
    reader.join(Duration.ofSeconds(30));
    return null;
  }

  private static String kind(HostileFrames.Move move) {
    return switch (move) {
      case HostileFrames.Text t -> "text";
      case HostileFrames.Raw r -> r.opcode() == RawSocket.BINARY ? "binary" : "raw text";
      case HostileFrames.Fragments f -> f.oversized() ? "fragments over the limit" : "fragments";
      case HostileFrames.Flood f -> "flood";
      case HostileFrames.Ping p -> "ping";
      case HostileFrames.Violation v -> "violation: " + v.what();
    };
  }

  private void write(HostileFrames.Move move) throws IOException {
    RawSocket s = socket;
    switch (move) {
      case HostileFrames.Text t -> s.send(t.text());
      case HostileFrames.Raw r -> s.write(RawSocket.frame(r.opcode(), true, r.payload()));
      case HostileFrames.Fragments f -> s.sendFragmented(f.opcode(), f.parts());
      case HostileFrames.Flood f -> s.writeAll(f.texts());
      case HostileFrames.Ping p -> s.write(RawSocket.frame(RawSocket.PING, true, p.payload()));
      case HostileFrames.Violation v -> s.write(v.wire());
    }
  }

  /**
   * Waits until the client's own bucket holds the move's frames; a flood takes them anyway, going into debt. The
   * sleep is the client's behaviour under test (keeping near the node's real frame rate, so most frames reach the
   * decoder rather than the rate limit), not a wait for a condition a latch could signal.
   */
  private void pace(HostileFrames.Move move) throws InterruptedException {
    long now = System.nanoTime();
    tokens = Math.min(BURST, tokens + (now - tokensAt) * RATE / 1e9);
    tokensAt = now;
    int n = move.messages();
    if (!(move instanceof HostileFrames.Flood) && tokens < n) {
      TimeUnit.NANOSECONDS.sleep((long) ((n - tokens) / RATE * 1e9));
      tokens = n;
      tokensAt = System.nanoTime();
    }
    tokens -= n;
  }

  /** Opens a socket (the old one closed), retrying while the node refuses the upgrade, for at most 30 s. */
  private void connect() throws Exception {
    RawSocket old = socket;
    if (old != null) {
      old.close();
      reader.join(Duration.ofSeconds(30));
      tally.add("reconnects");
    }
    Map<String, String> headers = token == null ? Map.of() : Map.of("Authorization", "Bearer " + token);
    RawSocket.Upgrade[] last = {null};
    Await.until(() -> "the node admits " + token + ", last answered " + last[0].status() + " " + last[0].body(),
        Duration.ofSeconds(30), Duration.ofMillis(20), () -> {
          last[0] = RawSocket.attempt(port, headers, 0);
          tally.add("upgrade:" + last[0].status());
          return last[0].socket() != null;
        });
    RawSocket s = Objects.requireNonNull(last[0].socket());
    socket = s;
    ended = false;
    s.readTimeout(Duration.ZERO);
    reader = Thread.ofVirtual().name("hostile-reader").start(() -> read(s));
  }

  private void read(RawSocket s) {
    try {
      while (true) {
        RawSocket.Frame f = s.readFrame();
        switch (f.opcode()) {
          case RawSocket.TEXT -> text(f.text());
          case RawSocket.CLOSE -> {
            tally.add("close:" + f.closeCode());
            return;
          }
          case 0xA -> tally.add("node:pong");
          default -> tally.add("bad:opcode " + f.opcode());
        }
      }
    } catch (IOException e) {
      tally.add("ended:" + (e instanceof EOFException ? "EOF" : "reset"));
    } finally {
      ended = true;
      try {
        s.close();
      } catch (IOException e) {
        // closed
      }
    }
  }

  private void text(String text) {
    JsonObject f;
    try {
      f = (JsonObject) Json.parse(text);
    } catch (RuntimeException e) {
      tally.add("bad:not a JSON object");
      return;
    }
    if (!(f.get("t") instanceof JsonString t)) {
      tally.add("bad:no t");
      return;
    }
    tally.add("node:" + t.value());
    if (t.value().equals("refuse")) {
      if (f.get("code") instanceof JsonString code && f.get("cause") instanceof JsonString cause
          && f.get("fix") instanceof JsonString fix && !cause.value().isBlank() && !fix.value().isBlank()) {
        tally.add("refuse:" + code.value());
      } else {
        tally.add("bad:refuse without code, cause and fix");
      }
    }
  }
}
