package io.runnel.sync.http;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which origins a node admits (RFC 6454 origins; a Host without a port means the scheme's default port). */
class OriginsTest {

  final Origins self = Origins.sameOriginOnly();

  @Test
  void withNoneConfiguredOnlyTheNodesOwnOriginIsAdmitted() {
    assertAll(
        () -> assertTrue(self.admits(null, "app.example.com"), "no Origin: not a browser's cross-origin call"),
        () -> assertTrue(self.admits("https://app.example.com", "app.example.com")),
        () -> assertTrue(self.admits("http://app.example.com", "app.example.com")),
        () -> assertTrue(self.admits("https://app.example.com:443", "app.example.com")),
        () -> assertTrue(self.admits("HTTPS://App.Example.com", "app.example.com"), "compared case-insensitively"),
        () -> assertTrue(self.admits("http://127.0.0.1:8080", "127.0.0.1:8080")),
        () -> assertTrue(self.admits("http://[::1]:8080", "[::1]:8080")),
        () -> assertTrue(self.admits("http://[::1]", "[::1]")));
  }

  @Test
  void anotherPortSchemeOrHostOfTheSameSiteIsForeign() {
    assertAll(
        () -> assertFalse(self.admits("https://app.example.com:9999", "app.example.com"),
            "a Host without a port is the scheme's default port, never the origin's"),
        () -> assertFalse(self.admits("http://app.example.com:443", "app.example.com")),
        () -> assertFalse(self.admits("http://127.0.0.1:9999", "127.0.0.1:8080")),
        () -> assertFalse(self.admits("http://[::1]:9999", "[::1]")),
        () -> assertFalse(self.admits("https://evil.example", "app.example.com")),
        () -> assertFalse(self.admits("https://app.example.com.evil.example", "app.example.com")),
        () -> assertFalse(self.admits("null", "app.example.com"), "sandboxed frames and file: pages"),
        () -> assertFalse(self.admits("https://app.example.com/path", "app.example.com"), "not an origin"),
        () -> assertFalse(self.admits("ftp://app.example.com", "app.example.com")),
        () -> assertFalse(self.admits("https://app.example.com", null)),
        () -> assertFalse(self.admits("https://app.example.com", "")));
  }

  @Test
  void onceConfiguredExactlyTheConfiguredOriginsAreAdmittedAndGetCors() {
    Origins listed = Origins.of(List.of("https://App.example.com", "http://localhost:5173"));
    assertAll(
        () -> assertTrue(listed.admits("https://app.example.com", "sync.example.com")),
        () -> assertTrue(listed.admits("https://app.example.com:443", "sync.example.com")),
        () -> assertTrue(listed.admits("http://localhost:5173", "localhost:8080")),
        () -> assertFalse(listed.admits("http://localhost:8080", "localhost:8080"),
            "the node's own origin too must be listed once origins are configured, as Helidon's upgrade check has it"),
        () -> assertTrue(listed.configured("https://app.example.com")),
        () -> assertFalse(listed.configured("https://evil.example")),
        () -> assertFalse(self.configured("https://app.example.com"), "no CORS without configuration"),
        () -> assertEquals(Set.of("https://app.example.com", "http://localhost:5173"), listed.browserForms()));
  }

  @Test
  void aConfiguredEntryThatIsNoOriginIsRefused() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> Origins.of(List.of("app.example.com"))),
        () -> assertThrows(IllegalArgumentException.class, () -> Origins.of(List.of("https://a.example/x"))),
        () -> assertThrows(IllegalArgumentException.class, () -> Origins.of(List.of("*"))));
  }
}
