package io.runnel.loadtest;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import io.runnel.bus.InProcessTransport;
import io.runnel.bus.Subjects;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Entity;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.postgresql.PGConnection;
import org.postgresql.replication.PGReplicationStream;

/**
 * The JVM of one decoder in the decode scenario: each decoder runs in a fresh JVM of its own, so none inherits
 * another's warmed-up code or heap, and its process CPU is its own. Prints one {@link DecodeRun#line()}.
 *
 * <p>Arguments: {@code <bare|runnel|debezium> <port> <slot> <publication> <expected changes> <postmaster pid>
 * <timeout seconds>}; the server is {@code 127.0.0.1:<port>}, database and user {@code postgres}.
 */
public final class DecodeWorker {

  /** The decode scenario's table as a Runnel entity. */
  static final EntityRef ITEMS = EntityRef.of("items").key("id").columns(c -> c.int8("id").int4("account")
      .text("status").numeric("amount").text("note").timestamptz("updated_at"));

  private DecodeWorker() {}

  /**
   * Runs one decoder and prints its result line.
   *
   * @throws Exception when the decoder fails or does not count every change in time
   */
  public static void main(String[] args) throws Exception {
    if (args.length != 7) {
      throw new IllegalArgumentException("usage: DecodeWorker <bare|runnel|debezium> <port> <slot> <publication>"
          + " <expected> <postmaster pid> <timeout s>");
    }
    String decoder = args[0];
    int port = Integer.parseInt(args[1]);
    String slot = args[2];
    String publication = args[3];
    long expected = Long.parseLong(args[4]);
    DecodeMeter meter = new DecodeMeter(decoder, expected, Long.parseLong(args[5]));
    long timeout = Long.parseLong(args[6]);
    DecodeRun run = switch (decoder) {
      case "bare" -> bare(port, slot, publication, meter, timeout);
      case "runnel" -> runnel(port, slot, publication, meter, timeout);
      case "debezium" -> debezium(port, slot, publication, meter, timeout);
      default -> throw new IllegalArgumentException("no decoder " + decoder);
    };
    System.out.println(run.line());
    System.out.flush();
    // Debezium's and pgjdbc's threads may linger; the result is out.
    System.exit(0);
  }

  /** pgjdbc's replication stream with Runnel's slot options, counting Insert, Update and Delete messages. */
  private static DecodeRun bare(int port, String slot, String publication, DecodeMeter meter, long timeout)
      throws Exception {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("replication", "database");
    p.setProperty("assumeMinServerVersion", "10");
    p.setProperty("preferQueryMode", "simple");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
    meter.start();
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", p);
        PGReplicationStream s = c.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
            .withSlotName(slot).withSlotOption("proto_version", "1")
            .withSlotOption("publication_names", publication).withSlotOption("messages", "true")
            .withStatusInterval(10, TimeUnit.SECONDS).withAutomaticFlush(false).start()) {
      while (meter.count() < meter.expected() && System.nanoTime() < deadline) {
        ByteBuffer b = s.read();
        byte type = b.get(b.position());
        if (type == 'I' || type == 'U' || type == 'D') {
          meter.change(b.remaining());
        }
      }
    }
    return meter.await(1);
  }

  /** Runnel's replicator publishing to the in-process bus; one subscriber counts the change messages. */
  private static DecodeRun runnel(int port, String slot, String publication, DecodeMeter meter, long timeout)
      throws Exception {
    try (InProcessTransport bus = InProcessTransport.create()) {
      bus.subscribe(Subjects.ALL_CHANGES, m -> {
        if (!m.subject().equals(Subjects.POSITION)) {
          meter.change(m.payload().length);
        }
      });
      Replicator r = Replicator.builder()
          .database(DatabaseUrl.parse("bench", "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres"))
          .slot(slot).publication(publication).entities(List.of(Entity.of(ITEMS))).transport(bus).build();
      meter.start();
      r.start();
      try {
        return meter.await(timeout);
      } finally {
        r.stop();
      }
    }
  }

  /**
   * Debezium embedded's PostgreSQL connector (pgoutput) on an existing slot and publication, no snapshot, offsets
   * in memory, JSON values without schemas; counts the records with a value (a delete's tombstone has none).
   */
  private static DecodeRun debezium(int port, String slot, String publication, DecodeMeter meter, long timeout)
      throws Exception {
    Properties p = new Properties();
    p.setProperty("name", "bench");
    p.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
    p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
    p.setProperty("offset.flush.interval.ms", "1000");
    p.setProperty("database.hostname", "127.0.0.1");
    p.setProperty("database.port", Integer.toString(port));
    p.setProperty("database.user", "postgres");
    p.setProperty("database.password", "postgres");
    p.setProperty("database.dbname", "postgres");
    p.setProperty("topic.prefix", "bench");
    p.setProperty("plugin.name", "pgoutput");
    p.setProperty("slot.name", slot);
    p.setProperty("publication.name", publication);
    p.setProperty("publication.autocreate.mode", "disabled");
    p.setProperty("snapshot.mode", "no_data");
    p.setProperty("table.include.list", "public.items");
    p.setProperty("key.converter.schemas.enable", "false");
    p.setProperty("value.converter.schemas.enable", "false");
    AtomicReference<Throwable> failure = new AtomicReference<>();
    DebeziumEngine<ChangeEvent<String, String>> engine = DebeziumEngine.create(Json.class).using(p)
        .notifying(record -> {
          if (record.value() != null) {
            meter.change(record.value().length());
          }
        })
        .using((success, message, error) -> {
          if (!success) {
            failure.set(error != null ? error : new IllegalStateException(message));
          }
        })
        .build();
    ExecutorService executor = Executors.newSingleThreadExecutor();
    meter.start();
    executor.execute(engine);
    try {
      return meter.await(timeout);
    } catch (IllegalStateException e) {
      if (failure.get() != null) {
        e.addSuppressed(failure.get());
      }
      throw e;
    } finally {
      engine.close();
      executor.shutdownNow();
    }
  }
}
