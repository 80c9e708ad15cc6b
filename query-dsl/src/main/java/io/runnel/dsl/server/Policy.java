package io.runnel.dsl.server;

import io.runnel.dsl.Actor;
import io.runnel.dsl.Row;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who may use a query, mutator or channel, and (for queries) which rows each actor may see. Required on every
 * declaration: a missing policy is a declaration error, never an open door.
 *
 * <p>The gate is decided once, at subscribe, call or join; the optional row rule is checked against the whole row
 * for every record an actor would see. A rule that throws is a gate failure (counted, the subscriber re-read),
 * never a silent denial or grant.
 */
public final class Policy {

  /** Decides whether an actor passes, given a channel's params (empty for queries and mutators). */
  @FunctionalInterface
  public interface Gate {
    /** Whether {@code actor} passes with {@code params}. */
    boolean admits(Actor actor, Map<String, String> params);
  }

  /** Decides whether an actor may see one row. */
  @FunctionalInterface
  public interface RowRule {
    /** Whether {@code actor} may see {@code row} (the whole row, as the window holds it). */
    boolean visible(Actor actor, Row row);
  }

  private final String description;
  private final Gate gate;
  private final @Nullable RowRule rowRule;

  private Policy(String description, Gate gate, @Nullable RowRule rowRule) {
    this.description = description;
    this.gate = gate;
    this.rowRule = rowRule;
  }

  /** Everyone, anonymous actors included. */
  public static Policy allowPublic() {
    return new Policy("public", (actor, params) -> true, null);
  }

  /** Any signed-in actor (one with an id). */
  public static Policy authenticated() {
    return new Policy("authenticated", (actor, params) -> !actor.isAnonymous(), null);
  }

  /** Actors holding {@code permission}. */
  public static Policy can(String permission) {
    Objects.requireNonNull(permission, "permission");
    return new Policy("can(" + permission + ")", (actor, params) -> actor.can(permission), null);
  }

  /** Actors holding {@code role}. */
  public static Policy role(String role) {
    Objects.requireNonNull(role, "role");
    return new Policy("role(" + role + ")", (actor, params) -> actor.roles().contains(role), null);
  }

  /** For channels: actors whose org id equals the topic's param {@code param}. */
  public static Policy memberOfParam(String param) {
    Objects.requireNonNull(param, "param");
    return new Policy("memberOfParam(" + param + ")",
        (actor, params) -> actor.orgId() != null && actor.orgId().equals(params.get(param)), null);
  }

  /** An app's own gate; {@code description} names it in logs and errors. */
  public static Policy custom(String description, Gate gate) {
    return new Policy(Objects.requireNonNull(description, "description"), Objects.requireNonNull(gate, "gate"), null);
  }

  /** This policy with a row rule: each actor sees only the rows {@code rule} lets it see. */
  public Policy visible(RowRule rule) {
    return new Policy(description, gate, Objects.requireNonNull(rule, "rule"));
  }

  /** Whether {@code actor} passes the gate of a query or mutator. */
  public boolean admits(Actor actor) {
    return gate.admits(actor, Map.of());
  }

  /** Whether {@code actor} passes the gate of a channel whose topic has {@code params}. */
  public boolean admits(Actor actor, Map<String, String> params) {
    return gate.admits(actor, params);
  }

  /** The row rule, or null when every row of the window is visible to everyone the gate admits. */
  public @Nullable RowRule rowRule() {
    return rowRule;
  }

  /** Whether {@code actor} may see {@code row}: true without a row rule. Exceptions from the rule propagate. */
  public boolean visible(Actor actor, Row row) {
    return rowRule == null || rowRule.visible(actor, row);
  }

  @Override
  public String toString() {
    return "Policy[" + description + (rowRule == null ? "" : " with row rule") + "]";
  }
}
