package io.runnel.client.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.client.Refs;
import io.runnel.client.bundle.WireJsonPort;
import io.runnel.dsl.MutatorRef;
import org.junit.jupiter.api.Test;

/** The test app's probe API ({@code app-probe.js}) on the JVM, over the test app's declarations. */
class BundleApiTest {

  private static final String A = "0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69";
  private static final String B = "1b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69";
  private static final String C = "2b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69";

  private final BundleApi api = new BundleApi(new Refs().entity(TestBoard.POSTS).query(TestBoard.LIVE_FEED)
      .mutator(TestBoard.LIKE_POST), new WireJsonPort());

  static String post(String id, String org, String createdAt, int likes) {
    return "{\"id\":\"" + id + "\",\"org_id\":\"" + org + "\",\"author_id\":\"ada\",\"title\":\"t\",\"like_count\":"
        + likes + ",\"liked_by_me\":false,\"created_at\":\"" + createdAt + "\"}";
  }

  @Test
  void describeListsTheRegisteredDeclarations() {
    assertEquals("{\"entities\":[{\"name\":\"posts\",\"key\":[\"id\"]}],"
        + "\"queries\":[{\"name\":\"liveFeed\",\"live\":true,\"perActor\":false}],"
        + "\"mutators\":[{\"name\":\"likePost\",\"twin\":true,\"conflict\":\"serverWins\"}]}", api.describe());
  }

  @Test
  void inputsAreValidatedByTheRefsCodecsAndEncodedAgain() {
    assertAll(
        () -> assertEquals("{\"input\":{\"orgId\":\"acme\"}}", api.queryInput("liveFeed", "{ \"orgId\" : \"acme\" }"),
            "a valid query input, re-encoded compactly"),
        () -> assertEquals("{\"input\":{\"postId\":\"" + A + "\"}}",
            api.mutatorInput("likePost", "{\"postId\":\"" + A + "\"}"), "a valid mutator input"),
        () -> assertEquals("X_INPUT_INVALID", code(api.queryInput("liveFeed", "{\"orgId\":7}")),
            "a field of the wrong type"),
        () -> assertEquals("X_LIVE_QUERY_UNKNOWN", code(api.queryInput("nope", "{}")), "an unknown query"),
        () -> assertEquals("X_MUTATOR_UNKNOWN", code(api.mutatorInput("nope", "{}")), "an unknown mutator"),
        () -> assertEquals(true, api.queryInput("liveFeed", "{\"orgId\":").contains("\"error\""),
            "text that is not JSON is an error answer, never an exception"));
  }

  @Test
  void placeAnswersTheMatchingKeysInTheQueryOrder() {
    String records = "[" + post(A, "acme", "2024-01-01T00:00:00Z", 0) + ","
        + post(B, "other", "2024-01-03T00:00:00Z", 0)
        + "," + post(C, "acme", "2024-01-02T00:00:00Z", 0) + "]";
    assertAll(
        () -> assertEquals("{\"keys\":[\"" + C + "\",\"" + A + "\"]}",
            api.place("liveFeed", "{\"orgId\":\"acme\"}", null, records), "acme's posts, newest first"),
        () -> assertEquals("{\"keys\":[]}", api.place("liveFeed", "{\"orgId\":\"none\"}", "ada", records),
            "no post matches"),
        () -> assertEquals("X_INPUT_INVALID", code(api.place("liveFeed", "{\"orgId\":\"acme\"}", null,
            "[{\"id\":\"" + A + "\",\"extra\":1}]")), "a record with an undeclared column"),
        () -> assertEquals("X_INPUT_INVALID", code(api.place("liveFeed", "{\"orgId\":\"acme\"}", null,
            "[{\"id\":\"" + A + "\"}]")), "a record without the column the filter reads"),
        () -> assertEquals("X_INPUT_INVALID", code(api.place("liveFeed", "{\"orgId\":\"acme\"}", null, "{}")),
            "records that are not an array"));
  }

  @Test
  void theTwinRunsOverThePagesRecordsAndAnswersWhatItChanged() {
    String records = "[{\"type\":\"posts\",\"record\":" + post(A, "acme", "2024-01-01T00:00:00Z", 3) + "}]";
    String liked = api.runTwin("likePost", "{\"postId\":\"" + A + "\"}", records);
    assertAll(
        () -> assertEquals("{\"twin\":true,\"records\":[{\"type\":\"posts\",\"key\":\"" + A + "\",\"record\":"
            + post(A, "acme", "2024-01-01T00:00:00Z", 4).replace("\"liked_by_me\":false", "\"liked_by_me\":true")
            + "}]}", liked, "the like is counted and marked"),
        () -> assertEquals("{\"twin\":true,\"records\":[]}",
            api.runTwin("likePost", "{\"postId\":\"" + B + "\"}", records), "a post the page lacks: nothing changes"),
        () -> assertEquals("X_INPUT_INVALID", code(api.runTwin("likePost", "{\"postId\":\"" + A + "\"}",
            "[{\"type\":\"nope\",\"record\":{}}]")), "a record of a type the bundle lacks"));
  }

  @Test
  void aMutatorWithoutATwinChangesNothing() {
    BundleApi bare = new BundleApi(new Refs().mutator(MutatorRef.of("plain",
        TestBoard.LikeInput.CODEC)), new WireJsonPort());
    assertEquals("{\"twin\":false,\"records\":[]}", bare.runTwin("plain", "{\"postId\":\"" + A + "\"}", "[]"));
  }

  @Test
  void noRefsMeansNoDeclarations() {
    BundleApi none = new BundleApi(new Refs(), new WireJsonPort());
    assertAll(
        () -> assertEquals("{\"entities\":[],\"queries\":[],\"mutators\":[]}", none.describe()),
        () -> assertEquals("X_LIVE_QUERY_UNKNOWN", code(none.queryInput("liveFeed", "{}"))),
        () -> assertEquals("X_MUTATOR_UNKNOWN", code(none.runTwin("likePost", "{}", "[]"))));
  }

  /** The error code of an answer, or "none". */
  static String code(String answer) {
    int at = answer.indexOf("\"code\":\"");
    return at < 0 ? "none" : answer.substring(at + 8, answer.indexOf('"', at + 8));
  }
}
