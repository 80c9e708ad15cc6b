package io.runnel.loadtest;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bench command line: profiles, scenario selection, sizes, and refusals that name the bad argument. */
class FlagsTest {

  private static final Set<String> KNOWN = Set.of("changes", "seed");
  private static final Set<String> SCENARIOS = Set.of("decode", "idle");

  private static Flags parse(String... args) {
    return Flags.parse(List.of(args), KNOWN, SCENARIOS);
  }

  @Test
  void noArgumentsMeansAQuickRunOfEveryScenarioThatWritesTheReport() {
    Flags f = parse();
    assertAll(
        () -> assertEquals(Flags.Profile.QUICK, f.profile()),
        () -> assertTrue(f.selected("decode") && f.selected("idle"), "every scenario runs"),
        () -> assertTrue(f.report()),
        () -> assertFalse(f.jfr()),
        () -> assertEquals(20_000, f.positive("changes", 20_000, 200_000), "the quick default"),
        () -> assertEquals("./runnel bench", f.command()));
  }

  @Test
  void fullTakesTheFullDefaultAndAFlagOverridesEitherSpelling() {
    assertAll(
        () -> assertEquals(200_000, parse("--full").positive("changes", 20_000, 200_000)),
        () -> assertEquals(1_000_000, parse("--full", "--changes", "1_000_000").positive("changes", 1, 2),
            "underscores are allowed"),
        () -> assertEquals(7, parse("--changes=7").positive("changes", 1, 2), "--name=value"),
        () -> assertEquals("./runnel bench --full --changes=7", parse("--full", "--changes=7").command(),
            "the command is kept as typed for the report"));
  }

  @Test
  void onlyNarrowsTheScenariosAndNoReportAndJfrAreSwitches() {
    Flags f = parse("--only", "decode", "--no-report", "--jfr");
    assertAll(
        () -> assertTrue(f.selected("decode")),
        () -> assertFalse(f.selected("idle"), "not named in --only"),
        () -> assertFalse(f.report()),
        () -> assertTrue(f.jfr()));
  }

  @Test
  void badArgumentsAreRefusedNamingTheArgument() {
    assertAll(
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--chnages", "5"))
            .getMessage().contains("--chnages"), "a typo is named, not ignored"),
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--only", "fanout"))
            .getMessage().contains("fanout")),
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("--changes"))
            .getMessage().contains("needs a value")),
        () -> assertTrue(assertThrows(IllegalArgumentException.class, () -> parse("decode"))
            .getMessage().contains("decode"), "a bare word is not a flag"),
        () -> assertTrue(assertThrows(IllegalArgumentException.class,
            () -> parse("--changes", "many").positive("changes", 1, 2)).getMessage().contains("not an integer")),
        () -> assertTrue(assertThrows(IllegalArgumentException.class,
            () -> parse("--changes", "0").positive("changes", 1, 2)).getMessage().contains("positive")));
  }
}
