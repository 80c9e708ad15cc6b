package io.runnel.example.testapp;

import io.runnel.bus.Transport;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Mutator;
import io.runnel.dsl.server.MutatorRefusedException;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.SyncNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The test app's server half: the table, the entity's tenant, the query's and mutator's policies, {@code putNote}'s
 * SQL, and a node that serves the app's page ({@link NotesPage}) beside Runnel's routes.
 *
 * <pre>{@code
 * db.execute(NotesServer.SCHEMA);
 * replicator: Replicator.builder()...entities(NotesServer.ENTITIES)...
 * SyncNode node = NotesServer.node(pool, bus).listen("127.0.0.1", 0).build();
 * node.start();   // http://127.0.0.1:<port>/?list=inbox&token=ada@acme
 * }</pre>
 */
public final class NotesServer {

  /**
   * The table. {@code created_at} is the server's clock at the insert ({@code clock_timestamp()}, so two inserts of
   * one transaction differ too) and is kept on a rename.
   */
  public static final String SCHEMA = """
      CREATE TABLE notes (
        id uuid PRIMARY KEY,
        org_id text NOT NULL,
        list_id text NOT NULL,
        title text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX notes_list ON notes (org_id, list_id, created_at);
      """;

  /** Notes, scoped by {@code org_id}: every read is pinned to the actor's org. */
  public static final Entity NOTES = Entity.of(Notes.NOTES).table("public.notes").tenant("org_id");

  /** The entities the replicator publishes. */
  public static final List<Entity> ENTITIES = List.of(NOTES);

  private static final String UPSERT = """
      INSERT INTO notes (id, org_id, list_id, title) VALUES (?::uuid, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET list_id = EXCLUDED.list_id, title = EXCLUDED.title
      WHERE notes.org_id = EXCLUDED.org_id
      """;

  private NotesServer() {}

  /**
   * The app's declarations: {@code notes} for any signed-in actor (pinned to its org), and {@code putNote}, which
   * inserts or renames a note of the actor's org and answers {@code {"id"}}. A note id that another org holds is
   * refused with {@code 409 X_NOTE_TAKEN}; an actor with no org with {@code 403 X_NO_ORG}.
   */
  public static Declarations declarations() {
    return Declarations.builder()
        .query(Query.of(Notes.NOTES_OF_LIST).on(NOTES).policy(Policy.authenticated()))
        .mutator(Mutator.of(Notes.PUT_NOTE).policy(Policy.authenticated()).server((ctx, in) -> {
          String org = ctx.actor().orgId();
          if (org == null) {
            throw new MutatorRefusedException("X_NO_ORG", 403, "Notes belong to an org, and this actor has none.",
                "Sign in as a member of an org.");
          }
          if (ctx.update(UPSERT, in.id(), org, in.listId(), in.title()) == 0) {
            throw new MutatorRefusedException("X_NOTE_TAKEN", 409, "Note " + in.id() + " belongs to another org.",
                "Make a new note with a fresh uuid (crypto.randomUUID()).");
          }
          return Map.of("id", in.id());
        }))
        .build();
  }

  /**
   * A node of this app, not yet started: its declarations, the bearer-token authenticator {@link TokenIdentities},
   * and the page's routes; the caller adds {@code listen(..)} and any limits.
   */
  public static SyncNode.Builder node(DataSource pool, Transport bus) {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(bus, "bus");
    return SyncNode.builder().declarations(declarations()).dataSource(pool).transport(bus)
        .authenticator(TokenIdentities.authenticator()).routing(NotesPage.load()::routes);
  }
}
