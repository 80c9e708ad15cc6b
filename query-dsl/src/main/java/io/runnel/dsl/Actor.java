package io.runnel.dsl;

import io.runnel.wire.Numbers;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Who is asking: an id (null for an anonymous actor), an optional org id (the tenant), roles and permissions, as
 * the authenticator mapped them from a credential.
 *
 * @param id the actor's id, or null when anonymous
 * @param orgId the actor's org (tenant) id, or null
 * @param roles the actor's roles
 * @param permissions the actor's permissions, which {@link io.runnel.dsl.server.Policy#can} checks
 */
public record Actor(@Nullable String id, @Nullable String orgId, Set<String> roles, Set<String> permissions) {

  private static final Actor ANONYMOUS = new Actor(null, null, Set.of(), Set.of());

  /** Copies the sets; an anonymous actor has no org. */
  public Actor {
    roles = copy(Objects.requireNonNull(roles, "roles"));
    permissions = copy(Objects.requireNonNull(permissions, "permissions"));
    if (id != null && id.isEmpty()) {
      throw new IllegalArgumentException("An actor id may not be empty; use null for an anonymous actor");
    }
    if (id == null && orgId != null) {
      throw new IllegalArgumentException("An anonymous actor has no org");
    }
  }

  /**
   * {@code Set.copyOf(names)} on the JVM. A bundle copies the strings in a loop, so that no {@code hashCode} call
   * sees every class's instances ({@code docs/client.md}, "Sizes"); its copy keeps the given order.
   *
   * @throws NullPointerException when a name is null
   */
  private static Set<String> copy(Set<String> names) {
    if (!Numbers.inBrowser()) {
      return Set.copyOf(names);
    }
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String n : names) {
      out.add(Objects.requireNonNull(n, "name"));
    }
    return Collections.unmodifiableSet(out);
  }

  /** The anonymous actor: no id, no org, no roles, no permissions. */
  public static Actor anonymous() {
    return ANONYMOUS;
  }

  /** A signed-in actor with {@code id} and nothing else. */
  public static Actor user(String id) {
    return new Actor(Objects.requireNonNull(id, "id"), null, Set.of(), Set.of());
  }

  /** This actor in org {@code orgId}. */
  public Actor inOrg(@Nullable String orgId) {
    return new Actor(id, orgId, roles, permissions);
  }

  /** This actor with {@code roles} (replacing its roles). */
  public Actor withRoles(String... roles) {
    return new Actor(id, orgId, Set.of(roles), permissions);
  }

  /** This actor with {@code permissions} (replacing its permissions). */
  public Actor withPermissions(String... permissions) {
    return new Actor(id, orgId, roles, Set.of(permissions));
  }

  /** Whether the actor is anonymous (has no id). */
  public boolean isAnonymous() {
    return id == null;
  }

  /** Whether the actor holds {@code permission}. */
  public boolean can(String permission) {
    return permissions.contains(permission);
  }
}
