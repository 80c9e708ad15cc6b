package io.runnel.client.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * TeaVM's minifier renames a {@code @JSBody}'s parameters to one-letter names and leaves the script's own names
 * alone, so a one-letter name the script declares (a {@code var}, a function parameter, a {@code catch} binding) can
 * shadow a renamed parameter. It happened: {@code ws.onclose = function(e) { closed(…) }} called the event, since
 * {@code closed} had become {@code e}, and a page whose node stopped never reconnected. This test reads every
 * {@code @JSBody} script in the client's sources and fails on such a declaration.
 */
class ScriptNamesTest {

  private static final Path SOURCES = Path.of("src/main/java");
  private static final Pattern BODY = Pattern.compile("@JSBody\\((.*?)\\)\\s*\\n\\s*(?:private|public|static|protected"
      + "|native)", Pattern.DOTALL);
  private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final Pattern SCRIPT = Pattern.compile("script\\s*=(.*)", Pattern.DOTALL);
  private static final List<Pattern> DECLARATIONS = List.of(
      Pattern.compile("\\b(?:var|let|const)\\s+([A-Za-z_$])\\b"),
      Pattern.compile(",\\s*([A-Za-z_$])\\s*=(?!=)"),
      Pattern.compile("\\bfunction\\s*[A-Za-z_$0-9]*\\s*\\(([^)]*)\\)"),
      Pattern.compile("\\bcatch\\s*\\(\\s*([A-Za-z_$])\\s*\\)"));

  @Test
  void noScriptDeclaresAOneLetterNameThatCouldShadowARenamedParameter() throws IOException {
    List<String> offences = new ArrayList<>();
    int scripts = 0;
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Matcher body = BODY.matcher(Files.readString(file));
        while (body.find()) {
          Matcher script = SCRIPT.matcher(body.group(1));
          if (!script.find()) {
            continue;
          }
          scripts++;
          StringBuilder text = new StringBuilder();
          Matcher literal = LITERAL.matcher(script.group(1));
          while (literal.find()) {
            text.append(literal.group(1));
          }
          for (String name : oneLetterDeclarations(text.toString())) {
            offences.add(SOURCES.relativize(file) + ": '" + name + "' in: " + text);
          }
        }
      }
    }
    assertTrue(scripts > 20, "the scan found the client's @JSBody scripts (" + scripts + ")");
    assertEquals(List.of(), offences, "Name script locals with whole words (event, error, response), not letters");
  }

  @Test
  void theScanFindsEachKindOfOneLetterDeclaration() {
    assertEquals(List.of("e"), oneLetterDeclarations("ws.onclose = function(e) { closed(e.code); };"));
    assertEquals(List.of("h"), oneLetterDeclarations("var h = 1;"));
    assertEquals(List.of("s"), oneLetterDeclarations("var header = 1, s = -1;"));
    assertEquals(List.of("x"), oneLetterDeclarations("try { go(); } catch (x) { }"));
    assertEquals(List.of("i"), oneLetterDeclarations("for (let i = 0; i < 2; i++) {}"));
    assertEquals(List.of(), oneLetterDeclarations("function(event, error) { var text = a === b; }"));
  }

  private static List<String> oneLetterDeclarations(String script) {
    List<String> found = new ArrayList<>();
    for (Pattern p : DECLARATIONS) {
      Matcher m = p.matcher(script);
      while (m.find()) {
        for (String name : m.group(1).split(",")) {
          String n = name.trim();
          if (n.length() == 1) {
            found.add(n);
          }
        }
      }
    }
    return found;
  }
}
