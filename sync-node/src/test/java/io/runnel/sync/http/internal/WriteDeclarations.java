package io.runnel.sync.http.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Mutator;
import io.runnel.dsl.server.MutatorRefusedException;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonNumber;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The app the write tests call: notes (tenant-scoped), counters, and mutators that succeed, refuse and fail. */
final class WriteDeclarations {

  static final String SCHEMA = """
      CREATE TABLE notes (id int PRIMARY KEY, org text NOT NULL, author text NOT NULL, body text NOT NULL);
      CREATE TABLE counters (name text PRIMARY KEY, n int NOT NULL);
      """;

  static final EntityRef NOTES = EntityRef.of("notes").key("id")
      .columns(c -> c.int4("id").text("org").text("author").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");

  record NoteIn(int id, String body) {
    static final JsonCodec<NoteIn> CODEC = JsonCodec.object(r -> new NoteIn(r.int4("id"), r.text("body")),
        (in, w) -> w.put("id", in.id()).put("body", in.body()));
  }

  record CounterIn(String name) {
    static final JsonCodec<CounterIn> CODEC = JsonCodec.object(r -> new CounterIn(r.text("name")),
        (in, w) -> w.put("name", in.name()));
  }

  record OrgIn(String org) {
    static final JsonCodec<OrgIn> CODEC = JsonCodec.object(r -> new OrgIn(r.text("org")),
        (in, w) -> w.put("org", in.org()));
  }

  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));
  static final QueryRef<NoInput> OWN = QueryRef.once("ownNotes", NoInput.CODEC,
      in -> select(NOTES).orderBy(asc("id")));
  static final QueryRef<NoInput> SECRET = QueryRef.once("secretNotes", NoInput.CODEC, in -> select(NOTES));
  static final QueryRef<OrgIn> BY_ORG = QueryRef.once("notesOfOrg", OrgIn.CODEC,
      in -> select(NOTES).where(eq("org", in.org())).orderBy(asc("id")));

  record NoteId(int id) {
    static final JsonCodec<NoteId> CODEC = JsonCodec.object(r -> new NoteId(r.int4("id")),
        (in, w) -> w.put("id", in.id()));
  }

  static final QueryRef<NoteId> NOTE = QueryRef.once("note", NoteId.CODEC,
      in -> select(NOTES).where(eq("id", in.id())));

  static final MutatorRef<NoteIn> ADD_NOTE = MutatorRef.of("addNote", NoteIn.CODEC);
  static final MutatorRef<CounterIn> BUMP = MutatorRef.of("bump", CounterIn.CODEC);
  static final MutatorRef<CounterIn> SLOW_BUMP = MutatorRef.of("slowBump", CounterIn.CODEC);
  static final MutatorRef<CounterIn> SERIAL_BUMP = MutatorRef.of("serialBump", CounterIn.CODEC);
  static final MutatorRef<NoteIn> CLAIM = MutatorRef.of("claim", NoteIn.CODEC);
  static final MutatorRef<NoteIn> EXPLODE = MutatorRef.of("explode", NoteIn.CODEC);
  static final MutatorRef<NoInput> ADMIN_ONLY = MutatorRef.of("adminOnly", NoInput.CODEC);
  static final MutatorRef<NoteIn> CRASH = MutatorRef.of("crash", NoteIn.CODEC);
  static final MutatorRef<ScaleIn> SCALE = MutatorRef.of("scale", ScaleIn.CODEC);

  record ScaleIn(double factor) {
    static final JsonCodec<ScaleIn> CODEC = JsonCodec.object(r -> new ScaleIn(r.float8("factor")),
        (in, w) -> w.put("factor", JsonNumber.of(in.factor())));
  }

  /** Counts the runs of the server functions that the tests must see run once, or not again. */
  static final AtomicInteger CLAIM_RUNS = new AtomicInteger();
  static final AtomicInteger EXPLODE_RUNS = new AtomicInteger();
  static final AtomicInteger SERIAL_RUNS = new AtomicInteger();

  /** Where {@code serialBump}'s first attempt commits a conflicting update from a second session. */
  static volatile TestDatabase database;

  private WriteDeclarations() {}

  static int bump(Connection c, String name) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "INSERT INTO counters VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET n = counters.n + 1 RETURNING n")) {
      s.setString(1, name);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  static Declarations declarations() {
    return Declarations.builder()
        .query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated()))
        .query(Query.of(OWN).on(NOTES_ENTITY)
            .policy(Policy.authenticated().visible((actor, row) -> actor.id().equals(row.text("author")))))
        .query(Query.of(SECRET).on(NOTES_ENTITY).policy(Policy.can("admin")))
        .query(Query.of(BY_ORG).on(NOTES_ENTITY).policy(Policy.authenticated()))
        .query(Query.of(NOTE).on(NOTES_ENTITY).policy(Policy.authenticated()))
        .mutator(Mutator.of(ADD_NOTE).policy(Policy.authenticated()).server((ctx, in) -> {
          ctx.update("INSERT INTO notes VALUES (?, ?, ?, ?)", in.id(), ctx.actor().orgId(), ctx.actor().id(),
              in.body());
          return Map.of("id", in.id());
        }))
        .mutator(Mutator.of(BUMP).policy(Policy.authenticated()).server((ctx, in) -> bump(ctx.connection(), in.name())))
        .mutator(Mutator.of(SLOW_BUMP).policy(Policy.authenticated()).server((ctx, in) -> {
          try (Statement s = ctx.connection().createStatement()) {
            s.execute("SELECT pg_sleep(0.3)");
          }
          return bump(ctx.connection(), in.name());
        }))
        .mutator(Mutator.of(SERIAL_BUMP).policy(Policy.authenticated()).serializable().server((ctx, in) -> {
          int run = SERIAL_RUNS.incrementAndGet();
          try (PreparedStatement s = ctx.connection().prepareStatement("SELECT n FROM counters WHERE name = ?")) {
            s.setString(1, in.name());
            s.executeQuery().close();
          }
          if (run == 1) {
            // Another session changes the row after this transaction's snapshot: the update below then fails with
            // 40001 "could not serialize access due to concurrent update".
            try (Connection other = database.connect()) {
              bump(other, in.name());
            }
          }
          return bump(ctx.connection(), in.name());
        }))
        .mutator(Mutator.of(CLAIM).policy(Policy.authenticated()).server((ctx, in) -> {
          CLAIM_RUNS.incrementAndGet();
          ctx.update("INSERT INTO notes VALUES (?, ?, ?, ?)", in.id(), ctx.actor().orgId(), ctx.actor().id(),
              in.body());
          throw new MutatorRefusedException("X_NOTE_TAKEN", 409, "Note " + in.id() + " is already claimed.",
              "Claim another note.");
        }))
        .mutator(Mutator.of(EXPLODE).policy(Policy.authenticated()).server((ctx, in) -> {
          EXPLODE_RUNS.incrementAndGet();
          ctx.update("INSERT INTO notes VALUES (?, ?, ?, ?)", in.id(), ctx.actor().orgId(), ctx.actor().id(),
              in.body());
          throw new IllegalStateException("secret internal detail");
        }))
        .mutator(Mutator.of(CRASH).policy(Policy.authenticated()).server((ctx, in) -> {
          ctx.update("INSERT INTO notes VALUES (?, ?, ?, ?)", in.id(), ctx.actor().orgId(), ctx.actor().id(),
              in.body());
          throw new AssertionError("an Error, not an Exception, after the insert");
        }))
        .mutator(Mutator.of(SCALE).policy(Policy.authenticated()).server((ctx, in) -> "scaled"))
        .mutator(Mutator.of(ADMIN_ONLY).policy(Policy.can("admin")).server((ctx, in) -> "ok"))
        .build();
  }
}
