package io.runnel.example.testapp;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;

import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonPath;
import io.runnel.wire.ObjectReader;
import java.util.Objects;

/**
 * The test app's client-safe declarations, compiled for the JVM and by TeaVM into {@code notes-app.js}: notes in
 * lists, one live query listing a list's notes, and one upsert mutator whose local twin shows the note at once.
 *
 * <p>A note's key is a uuid the browser makes ({@code crypto.randomUUID()}), so the optimistic note and its echo are
 * one record. {@code created_at} is the server's; the twin leaves it null, which sorts last (ascending order puts
 * NULLs last), so a new note shows at the end of its list until its echo brings the time.
 */
public final class Notes {

  /** The longest title, in UTF-16 units. */
  public static final int MAX_TITLE = 200;

  /** A note: {@code id} uuid (key), {@code org_id} (the tenant), {@code list_id}, {@code title}, {@code created_at}. */
  public static final EntityRef NOTES = EntityRef.of("notes").key("id")
      .columns(c -> c.uuid("id").text("org_id").text("list_id").text("title").timestamptz("created_at"));

  /** The live query's input: the list whose notes it shows. */
  public record ListInput(String listId) {
    /** Requires a list id. */
    public ListInput {
      Objects.requireNonNull(listId, "listId");
    }

    /** Its codec: {@code {"listId": "…"}}. */
    public static final JsonCodec<ListInput> CODEC = JsonCodec.object(
        r -> new ListInput(r.text("listId")), (in, w) -> w.put("listId", in.listId()));
  }

  /** {@code notes}: a list's notes, oldest first (then by id), at most 200. */
  public static final QueryRef<ListInput> NOTES_OF_LIST = QueryRef.live("notes", ListInput.CODEC,
      in -> select(NOTES).where(eq("list_id", in.listId())).orderBy(asc("created_at")).limit(200));

  /**
   * {@code putNote}'s input: the note's uuid, its list and its title.
   *
   * @param id the note's uuid, canonical (lower case, hyphenated)
   * @param listId the list, not empty
   * @param title 1 to {@link #MAX_TITLE} characters, not all blank
   */
  public record PutNote(String id, String listId, String title) {
    /**
     * Validates the fields.
     *
     * @throws InputInvalidException ({@code X_INPUT_INVALID}) naming the field at fault
     */
    public PutNote {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(listId, "listId");
      Objects.requireNonNull(title, "title");
      if (listId.isEmpty()) {
        throw new InputInvalidException("listId", "is empty", "Name the list the note belongs to.");
      }
      if (title.trim().isEmpty() || title.length() > MAX_TITLE) {
        throw new InputInvalidException("title", "must hold 1 to 200 characters, not all blank",
            "Send a title of 1 to 200 characters.");
      }
    }

    /** Its codec: {@code {"id": "<uuid>", "listId": "…", "title": "…"}}; {@code id} must be a uuid. */
    public static final JsonCodec<PutNote> CODEC = JsonCodec.object(
        r -> new PutNote(uuid(r, "id"), r.text("listId"), r.text("title")),
        (in, w) -> w.put("id", in.id()).put("listId", in.listId()).put("title", in.title()));
  }

  /**
   * {@code putNote}: creates the note, or renames (and moves) it when it exists. The twin does the same to the page's
   * records at once; the server's answer settles it.
   */
  public static final MutatorRef<PutNote> PUT_NOTE = MutatorRef.of("putNote", PutNote.CODEC)
      .local(Notes::putLocally)
      .conflict(Conflict.SERVER_WINS);

  private Notes() {}

  /** The twin: pure, and applying it twice equals applying it once. */
  static void putLocally(LocalTx tx, PutNote in) {
    String key = NOTES.key(in.id());
    if (tx.get(NOTES, key) != null) {
      tx.update(NOTES, key, note -> note.with("list_id", in.listId()).with("title", in.title()));
    } else {
      tx.insert(NOTES, Row.empty().with("id", key).with("org_id", null).with("list_id", in.listId())
          .with("title", in.title()).with("created_at", null));
    }
  }

  private static String uuid(ObjectReader r, String name) {
    return (String) NOTES.column("id").type().fromJson(r.value(name), JsonPath.member(r.path(), name));
  }
}
