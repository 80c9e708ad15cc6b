package io.runnel.loadtest;

import java.nio.file.Path;
import java.util.Set;

/**
 * One benchmark scenario: it takes its size from {@link Flags} (the profile's defaults unless a flag
 * says otherwise), prints its figures as it measures them, and returns them as a {@link Section} for
 * {@code docs/performance.md}. Scenarios run one after another, never beside each other.
 */
public sealed interface Scenario permits DecodeScenario, IdleScenario, FanoutScenario, PolicyScenario, StormScenario,
    CeilingScenario, ZeroScenario {

  /** The name {@code --only} takes, lower case, for example {@code decode}. */
  String name();

  /** The flags with values this scenario reads (without dashes), for example {@code changes}. */
  Set<String> flags();

  /**
   * Runs the scenario.
   *
   * @param flags the command line
   * @param work a fresh directory of its own for data and profiles, removed or kept by the caller
   * @throws Exception when it cannot measure; the message says what failed
   */
  Section run(Flags flags, Path work) throws Exception;
}
