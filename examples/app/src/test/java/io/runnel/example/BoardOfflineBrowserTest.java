package io.runnel.example;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The board in Chromium when one page loses the network and comes back. The page's
 * {@code /v1/} requests are aborted with {@code page.route} (its calls, its socket tickets and its sign-in), and its
 * socket is cut by stopping the node; the node starts again at once, for the other page, while the cut page, whose
 * tickets fail, stays offline ({@code setOffline} would not cut a WebSocket). The cut page posts (the call reaches
 * the node and only its answer is lost, so the other page sees the post), likes two posts, one of which the other
 * page likes meanwhile, reloads still cut and comes back; every like count its
 * feed rendered is recorded across the reload (a MutationObserver keeping its record in sessionStorage), and the rows
 * are counted in the database.
 *
 * <p>The reloaded page is served by the node, not fulfilled from a cache by {@code page.route}: Chromium's Local
 * Network Access checks block the WebSocket of a document a route fulfilled from reaching 127.0.0.1
 * ({@code net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS}), so such a page retries with its backoff for ever, even
 * after the routes are gone and the node is back.
 */
class BoardOfflineBrowserTest extends BoardWorldTest {

  /**
   * Records, per post id, each like count the feed rendered ("absent" once a post rendered before is gone), in
   * order and with repeats in a row collapsed, while the feed is ready; kept in sessionStorage across reloads.
   */
  static final String RECORDER = """
      (() => {
        const seen = JSON.parse(sessionStorage.getItem('__seen') || '{}');
        const record = () => {
          const feed = document.getElementById('feed');
          if (!feed || feed.dataset.status !== 'ready') return;
          const now = {};
          for (const li of feed.querySelectorAll('li')) now[li.dataset.id] = li.dataset.likes;
          let changed = false;
          for (const id of new Set([...Object.keys(seen), ...Object.keys(now)])) {
            const value = id in now ? now[id] : 'absent';
            const values = seen[id] || (seen[id] = []);
            if (values[values.length - 1] !== value) {
              values.push(value);
              changed = true;
            }
          }
          if (changed) sessionStorage.setItem('__seen', JSON.stringify(seen));
        };
        new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true });
      })();
      """;

  /**
   * A page's network as the test cuts it: while cut, every {@code /v1/} request of the page is aborted (its calls,
   * its tickets, its sign-in), the first {@code createPost} only after it reached the node, so the node applies it
   * and its answer is lost. A page whose tickets fail opens no socket (the test counts the sockets it opens).
   */
  static final class Network {
    private final List<String> sockets = new ArrayList<>();
    private boolean cut;
    private boolean answerLost;

    Network(Page page) {
      page.route(url -> URI.create(url).getPath().startsWith("/v1/"), this::request);
      page.onWebSocket(socket -> sockets.add((cut ? "cut " : "") + socket.url()));
    }

    private void request(Route route) {
      if (!cut) {
        route.resume();
      } else if (!answerLost && URI.create(route.request().url()).getPath().equals("/v1/mutate/createPost")) {
        answerLost = true;
        route.fetch();
        route.abort();
      } else {
        route.abort();
      }
    }

    void cut() {
      cut = true;
    }

    void restore() {
      cut = false;
    }

    boolean answerLost() {
      return answerLost;
    }

    /** The sockets the page opened while the network was cut. */
    List<String> socketsWhileCut() {
      return sockets.stream().filter(s -> s.startsWith("cut ")).toList();
    }
  }

  /** The feed item of post {@code id} on {@code page}. */
  static Locator post(Page page, String id) {
    return page.locator("#feed li[data-id='" + id + "']");
  }

  /** The recorder's values of each post id the page rendered. */
  // Playwright answers the page's object as an untyped map; the cast names what the page returned.
  @SuppressWarnings("unchecked")
  static Map<String, List<String>> seen(Page page) {
    return new LinkedHashMap<>((Map<String, List<String>>) page.evaluate(
        "() => JSON.parse(sessionStorage.getItem('__seen'))"));
  }

  @Test
  void aPageOfflinePostsLikesTwiceReloadsAndComesBackEachWriteAppliedOnceBothPagesConvergeNoValueGoesBack()
      throws Exception {
    String first = BoardAppTest.seedPost(14);
    String second = BoardAppTest.seedPost(13);
    Page ada = chromium.newContext().newPage();
    ada.addInitScript(RECORDER);
    Network network = new Network(ada);
    signedIn("ada", ada);
    Page alan = signedIn("alan");

    network.cut();
    app.stopNode();
    assertThat(ada.locator("#connection")).not().hasAttribute("data-state", "online", patiently());
    app.startNode();
    assertThat(alan.locator("#connection")).hasAttribute("data-state", "online", patiently());
    String id = (String) ada.evaluate("() => board.post('Posted offline', 'Its answer was lost')");
    assertThat(post(alan, id)).isVisible();
    post(ada, first).locator("button.like").click();
    post(ada, second).locator("button.like").click();
    assertThat(ada.locator("#outbox")).hasAttribute("data-pending", "3", patiently());
    assertThat(post(ada, first)).hasAttribute("data-likes", "1");
    assertThat(post(ada, second)).hasAttribute("data-likes", "1");
    post(alan, first).locator("button.like").click();
    assertThat(post(alan, first)).hasAttribute("data-likes", "1", patiently());

    ada.reload();
    assertThat(ada.locator("#outbox")).hasAttribute("data-pending", "3", patiently());
    assertThat(ada.locator("#connection")).hasAttribute("data-state", "offline", patiently());
    network.restore();

    ready(ada);
    assertThat(ada.locator("#outbox")).hasAttribute("data-pending", "0", patiently());
    for (Page page : List.of(ada, alan)) {
      assertThat(post(page, first)).hasAttribute("data-likes", "2", patiently());
      assertThat(post(page, second)).hasAttribute("data-likes", "1", patiently());
      assertThat(post(page, id)).hasAttribute("data-likes", "0", patiently());
      assertThat(page.locator("#feed li")).hasCount(15);
    }
    assertThat(post(ada, first)).hasAttribute("data-liked", "true");
    assertThat(post(ada, second)).hasAttribute("data-liked", "true");

    Map<String, List<String>> seen = seen(ada);
    assertAll(
        () -> assertTrue(network.answerLost(), "createPost reached the node and its answer was lost"),
        () -> assertEquals(List.of(), network.socketsWhileCut()),
        () -> assertEquals("0", ada.locator("#outbox").getAttribute("data-failed")),
        () -> assertEquals(1, rows("SELECT count(*) FROM posts WHERE id = '" + id + "'")),
        () -> assertEquals(15, rows("SELECT count(*) FROM posts WHERE org_id = 'acme'")),
        () -> assertEquals(2, rows("SELECT count(*) FROM likes WHERE user_id = 'ada'")),
        () -> assertEquals(2, rows("SELECT count(*) FROM likes WHERE post_id = '" + first + "'")),
        () -> assertEquals(2, rows("SELECT like_count FROM posts WHERE id = '" + first + "'")),
        () -> assertEquals(1, rows("SELECT like_count FROM posts WHERE id = '" + second + "'")),
        () -> assertEquals(3, rows("SELECT count(*) FROM runnel.idempotency WHERE actor = 'ada'")),
        () -> assertEquals(List.of("0", "1", "2"), seen.get(first), "the first liked post's counts"),
        () -> assertEquals(List.of("0", "1"), seen.get(second), "the second liked post's counts"),
        () -> assertEquals(List.of("0"), seen.get(id), "the new post, once shown, stays"),
        () -> assertEquals(15, seen.size(), "posts rendered"),
        () -> seen.forEach((post, values) -> {
          if (!List.of(first, second, id).contains(post)) {
            assertEquals(List.of("0"), values, "the counts of " + post);
          }
        }),
        () -> assertEquals(List.of(), pageErrors));
  }
}
