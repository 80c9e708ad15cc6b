package io.runnel.client;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.client.testapp.TestBoard;
import io.runnel.dsl.MutatorRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bundle's declarations by name. */
class RefsTest {

  @Test
  void refsAreFoundByNameAndListedInRegistrationOrder() {
    Refs refs = new Refs().entity(TestBoard.POSTS).query(TestBoard.LIVE_FEED).mutator(TestBoard.LIKE_POST);
    assertAll(
        () -> assertSame(TestBoard.POSTS, refs.entity("posts")),
        () -> assertSame(TestBoard.LIVE_FEED, refs.query("liveFeed")),
        () -> assertSame(TestBoard.LIKE_POST, refs.mutator("likePost")),
        () -> assertNull(refs.query("likePost"), "names are per kind"),
        () -> assertEquals(List.of(TestBoard.LIKE_POST), refs.mutators()));
  }

  @Test
  void registeringTheSameRefTwiceIsHarmlessButAnotherOfTheSameNameIsRefused() {
    Refs refs = new Refs().mutator(TestBoard.LIKE_POST).mutator(TestBoard.LIKE_POST);
    MutatorRef<TestBoard.LikeInput> other = MutatorRef.of("likePost", TestBoard.LikeInput.CODEC);
    assertAll(
        () -> assertEquals(1, refs.mutators().size(), "one registration"),
        () -> assertThrows(IllegalArgumentException.class, () -> refs.mutator(other), "a second likePost"));
  }
}
