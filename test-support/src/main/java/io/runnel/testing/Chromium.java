package io.runnel.testing;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Debian's Chromium ({@code /usr/bin/chromium}, or {@code RUNNEL_CHROMIUM}) driven by Playwright for Java, headless,
 * with the flags a container needs: no sandbox (tests run as root), no
 * GPU, and none of Chromium's background network calls, which the closed network here refuses. Playwright never
 * downloads a browser of its own. Callers declare {@code com.microsoft.playwright:playwright} themselves (it is an
 * optional dependency of this module).
 *
 * <pre>{@code
 * try (Chromium chromium = Chromium.launch()) {
 *   Page page = chromium.newContext().newPage();
 *   page.navigate(url);
 * }
 * }</pre>
 */
public final class Chromium implements AutoCloseable {

  /** Where Debian's {@code chromium} package puts the browser. */
  public static final Path DEBIAN_CHROMIUM = Path.of("/usr/bin/chromium");

  private static final List<String> ARGS = List.of("--no-sandbox", "--headless", "--disable-gpu", "--disable-quic",
      "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run");

  private final Playwright playwright;
  private final Browser browser;

  private Chromium(Playwright playwright, Browser browser) {
    this.playwright = playwright;
    this.browser = browser;
  }

  /**
   * Starts Playwright's driver and one headless Chromium.
   *
   * @throws IllegalStateException when no Chromium is installed, naming the command that installs it
   */
  public static Chromium launch() {
    Path executable = executable();
    if (!Files.isExecutable(executable)) {
      throw new IllegalStateException("No Chromium at " + executable + ". Install Debian's: apt-get update && "
          + "apt-get install -y chromium (.ci/run does this when it is missing), or set RUNNEL_CHROMIUM to a "
          + "Chromium binary.");
    }
    if (System.getProperty("playwright.nodejs.path") == null && Files.isExecutable(Path.of("/usr/bin/node"))) {
      // The machine's node starts the driver faster than the one Playwright unpacks.
      System.setProperty("playwright.nodejs.path", "/usr/bin/node");
    }
    Playwright playwright = Playwright.create(new Playwright.CreateOptions()
        .setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
    try {
      Browser browser = playwright.chromium().launch(new BrowserType.LaunchOptions()
          .setExecutablePath(executable).setHeadless(true).setArgs(ARGS));
      return new Chromium(playwright, browser);
    } catch (RuntimeException e) {
      playwright.close();
      throw e;
    }
  }

  private static Path executable() {
    String override = System.getenv("RUNNEL_CHROMIUM");
    return override == null || override.isBlank() ? DEBIAN_CHROMIUM : Path.of(override);
  }

  /**
   * A new browser context: its own cookies, storage (IndexedDB, localStorage) and Web Locks; pages in it share them.
   */
  public BrowserContext newContext() {
    return browser.newContext();
  }

  /** The browser, for options {@link #newContext()} does not cover. */
  public Browser browser() {
    return browser;
  }

  /** Closes the browser and the driver. */
  @Override
  public void close() {
    try {
      browser.close();
    } finally {
      playwright.close();
    }
  }
}
