package io.runnel.loadtest;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * The server JVM of the socket scenarios (idle, fan-out, ceiling): either a Runnel sync node ({@link RunnelNode})
 * or a bare Helidon WebSocket route with no Runnel state ({@link BareNode}). It prints {@code port <n>} once it
 * listens, then answers commands read line by line from its standard input, each with one line on standard output:
 *
 * <ul>
 *   <li>{@code gc}: {@code heap <bytes>}, the used heap after {@link System#gc()} (three times, settled);
 *   <li>{@code blast <changes/s> <changes> <seconds> <tenants> <frame bytes>} (bare only): sends pre-encoded
 *       frames, one change at a time to the sockets of one tenant, at that rate ({@code 0}: as fast as it can),
 *       until it sent that many changes or the seconds passed; answers
 *       {@code blasted <changes> <frames> <nanos>};
 *   <li>{@code quit}: stops and exits.
 * </ul>
 *
 * <p>Arguments: {@code runnel <postgres port>} or {@code bare}.
 */
public final class SocketNode {

  private SocketNode() {}

  /** The node's side of the protocol above. @throws Exception when the node cannot start */
  public static void main(String[] args) throws Exception {
    Server server = switch (args[0]) {
      case "runnel" -> RunnelNode.start(Integer.parseInt(args[1]));
      case "bare" -> BareNode.start();
      default -> throw new IllegalArgumentException("usage: SocketNode runnel <postgres port> | bare");
    };
    System.out.println("port " + server.port());
    System.out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] w = line.trim().split(" ");
      switch (w[0]) {
        case "gc" -> System.out.println("heap " + heapAfterGc());
        case "blast" -> System.out.println("blasted " + server.blast(Double.parseDouble(w[1]),
            Long.parseLong(w[2]), Double.parseDouble(w[3]), Integer.parseInt(w[4]), Integer.parseInt(w[5])));
        case "quit" -> {
          server.stop();
          System.out.println("bye");
          System.out.flush();
          System.exit(0);
        }
        default -> System.out.println("error unknown command " + line);
      }
      System.out.flush();
    }
    server.stop();
    System.exit(0);
  }

  /** Used heap, bytes, after three full collections half a second apart. */
  static long heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(500);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** One server kind. */
  interface Server {
    /** The listening port. */
    int port();

    /**
     * Sends {@code changes} pre-encoded changes at {@code rate} changes a second (0: unpaced), each to the sockets
     * of one tenant in turn, for at most {@code seconds}; answers {@code "<changes> <frames> <nanos>"}.
     *
     * @throws UnsupportedOperationException on a Runnel node (its frames come from the database)
     */
    String blast(double rate, long changes, double seconds, int tenants, int frameBytes) throws InterruptedException;

    /** Stops the server. */
    void stop();
  }
}
