package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.Row;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonLimits;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** The app's client-safe declarations on the JVM: {@code putNote}'s input rules and its twin. */
class NotesTest {

  static final String ID = "0190f3a2-7b4c-7d00-8e2a-1c2b3d4e5f60";

  static Notes.PutNote decode(String json) {
    return Notes.PUT_NOTE.decodeInput(Json.parse(json), JsonLimits.INPUT_DEFAULTS);
  }

  static InputInvalidException refused(String json) {
    return assertThrows(InputInvalidException.class, () -> decode(json));
  }

  @Test
  void aPutNoteInputDecodesWithItsUuidInCanonicalForm() {
    Notes.PutNote in = decode("{\"id\":\"" + ID.toUpperCase(Locale.ROOT) + "\",\"listId\":\"inbox\","
        + "\"title\":\"milk\"}");
    assertAll(
        () -> assertEquals(ID, in.id()),
        () -> assertEquals("inbox", in.listId()),
        () -> assertEquals("milk", in.title()),
        () -> assertEquals(in, Notes.PutNote.CODEC.decode(Notes.PutNote.CODEC.encode(in)), "the codec round-trips"));
  }

  @Test
  void aBadPutNoteInputIsRefusedNamingTheField() {
    InputInvalidException notUuid = refused("{\"id\":\"42\",\"listId\":\"inbox\",\"title\":\"milk\"}");
    InputInvalidException blank = refused("{\"id\":\"" + ID + "\",\"listId\":\"inbox\",\"title\":\"   \"}");
    InputInvalidException tooLong = refused("{\"id\":\"" + ID + "\",\"listId\":\"inbox\",\"title\":\""
        + "x".repeat(Notes.MAX_TITLE + 1) + "\"}");
    InputInvalidException noList = refused("{\"id\":\"" + ID + "\",\"listId\":\"\",\"title\":\"milk\"}");
    InputInvalidException missing = refused("{\"id\":\"" + ID + "\",\"title\":\"milk\"}");
    InputInvalidException extra = refused("{\"id\":\"" + ID + "\",\"listId\":\"a\",\"title\":\"b\",\"done\":true}");
    assertAll(
        () -> assertEquals("id", notUuid.path()),
        () -> assertEquals("title", blank.path()),
        () -> assertEquals("title", tooLong.path()),
        () -> assertEquals("listId", noList.path()),
        () -> assertEquals("listId", missing.path()),
        () -> assertEquals("done", extra.path()),
        () -> assertEquals("X_INPUT_INVALID", notUuid.code().name()),
        () -> assertEquals(Notes.MAX_TITLE, decode("{\"id\":\"" + ID + "\",\"listId\":\"a\",\"title\":\""
            + "x".repeat(Notes.MAX_TITLE) + "\"}").title().length(), "the longest title passes"));
  }

  @Test
  void theTwinInsertsANewNoteWithNoCreatedAtYetAndRenamesAnExistingOne() {
    MapTx tx = new MapTx();
    Notes.putLocally(tx, new Notes.PutNote(ID, "inbox", "one"));
    Row inserted = tx.get(Notes.NOTES, ID);
    Notes.putLocally(tx, new Notes.PutNote(ID, "inbox", "two"));
    Row renamed = tx.get(Notes.NOTES, ID);
    Notes.putLocally(tx, new Notes.PutNote(ID, "inbox", "two"));
    assertAll(
        () -> assertEquals("one", inserted.text("title")),
        () -> assertEquals("inbox", inserted.text("list_id")),
        () -> assertNull(inserted.get("created_at"), "the server sets created_at; the twin leaves it null (last)"),
        () -> assertEquals("two", renamed.text("title")),
        () -> assertEquals(1, tx.rows.size(), "a rename is the same record"),
        () -> assertEquals(renamed, tx.get(Notes.NOTES, ID), "applying it twice equals applying it once"));
  }

  /** Records by key, as a twin sees them. */
  static final class MapTx implements LocalTx {
    final Map<String, Row> rows = new LinkedHashMap<>();

    @Override
    public Actor actor() {
      return Actor.anonymous();
    }

    @Override
    public @Nullable Row get(EntityRef type, String key) {
      return rows.get(key);
    }

    @Override
    public void insert(EntityRef type, Row row) {
      rows.put(type.keyOf(row), row);
    }

    @Override
    public void update(EntityRef type, String key, UnaryOperator<Row> change) {
      Row r = rows.get(key);
      if (r != null) {
        rows.put(key, r.merge(change.apply(r)));
      }
    }

    @Override
    public void delete(EntityRef type, String key) {
      rows.remove(key);
    }
  }
}
