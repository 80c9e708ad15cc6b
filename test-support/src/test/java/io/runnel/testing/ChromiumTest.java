package io.runnel.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.Route;
import org.junit.jupiter.api.Test;

class ChromiumTest {

  @Test
  void debiansChromiumRunsAPageScriptHeadless() {
    try (Chromium chromium = Chromium.launch()) {
      Page page = chromium.newContext().newPage();
      // Web Locks exist only in a secure context: http://localhost is one, about:blank is not.
      page.route("http://localhost/", route -> route.fulfill(new Route.FulfillOptions().setContentType("text/html")
          .setBody("<html><body><p id=v></p><script>document.getElementById('v').textContent ="
              + " String(typeof indexedDB) + ' ' + String(typeof navigator.locks);</script></body></html>")));
      page.navigate("http://localhost/");
      assertEquals("object object", page.textContent("#v"),
          "IndexedDB and Web Locks exist in the page (the client's durable store and tab lock need them)");
    }
  }
}
