package io.runnel.loadtest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * PostgreSQL's own {@code pg_recvlogical} from a client install ({@code /usr/lib/postgresql/<major>/bin}; the
 * embedded binaries do not ship it), reading a pgoutput slot until a given LSN and writing to a pipe this JVM
 * drains. It counts nothing: the clock runs from the process start (and from its first byte) to its exit at
 * {@code --endpos}.
 */
final class PgRecvLogical {

  private PgRecvLogical() {}

  /** The newest {@code pg_recvlogical} under {@code /usr/lib/postgresql}, if any. */
  static Optional<Path> find() {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> majors = Files.list(root)) {
      return majors.map(m -> m.resolve("bin/pg_recvlogical")).filter(Files::isExecutable)
          .max(Comparator.comparing(p -> p.getName(p.getNameCount() - 3).toString(), // <root>/<major>/bin/…
              Comparator.comparingInt(PgRecvLogical::major)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static int major(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Runs it on {@code slot} until {@code endLsn}.
   *
   * @throws IllegalStateException when it fails or does not end within {@code timeout} seconds (its output names
   *     why)
   */
  static DecodeRun run(Path binary, int port, String slot, String publication, String endLsn, long changes,
      long postmaster, long timeout) throws IOException, InterruptedException {
    List<String> cmd = List.of(binary.toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres",
        "-d", "postgres", "--slot", slot, "--start", "--endpos", endLsn, "--no-loop", "-o", "proto_version=1", "-o",
        "publication_names=" + publication, "-o", "messages=true", "-f", "-");
    long self = ProcessHandle.current().pid();
    long children0 = ProcStat.read(self).map(s -> s.cutime() + s.cstime()).orElse(0L);
    long server0 = ServerCpu.ticks(postmaster);
    long t0 = System.nanoTime();
    Path errors = Files.createTempFile("pg_recvlogical", ".log");
    Process p = new ProcessBuilder(cmd).redirectError(errors.toFile()).start();
    long[] first = {0};
    long[] bytes = {0};
    Thread reader = Thread.ofPlatform().name("pg_recvlogical-out").start(() -> {
      byte[] buf = new byte[1 << 16];
      try (InputStream in = p.getInputStream()) {
        int n;
        while ((n = in.read(buf)) > 0) {
          if (first[0] == 0) {
            first[0] = System.nanoTime();
          }
          bytes[0] += n;
        }
      } catch (IOException e) {
        // The process ended; what was read is counted.
      }
    });
    if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("pg_recvlogical did not reach " + endLsn + " in " + timeout + " s");
    }
    long end = System.nanoTime();
    reader.join();
    long server = ServerCpu.ticks(postmaster) - server0;
    long children = ProcStat.read(self).map(s -> s.cutime() + s.cstime()).orElse(0L) - children0;
    if (p.exitValue() != 0 || first[0] == 0) {
      throw new IllegalStateException("pg_recvlogical (" + binary + ") exited " + p.exitValue() + " after "
          + bytes[0] + " bytes: " + Files.readString(errors).strip());
    }
    return new DecodeRun("pg_recvlogical", changes, end - t0, end - first[0], Math.max(0, children), server,
        bytes[0]);
  }
}
