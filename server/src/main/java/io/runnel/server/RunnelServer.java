package io.runnel.server;

import io.helidon.webserver.http.HttpRules;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.server.DevSignIn.DevUser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

/**
 * One app on the runtime: what it declares and what it brings (its entities, its Flyway migrations, its page's
 * routes, its development users), and the runtime's roles that run it ({@link AllRole} for {@code RUNNEL_ROLE=all},
 * {@link ReplicatorRole}, {@link SyncRole}) as {@link RunnelMain} picks them from the environment.
 *
 * <pre>{@code
 * RunnelServer server = RunnelServer.builder().name("board").title("the team board")
 *     .declarations(BoardServer.declarations()).entities(BoardServer.ENTITIES)
 *     .migrations("classpath:db/migration").routes(BoardPage.load()::routes).devUsers(BoardServer.DEV_USERS).build();
 * RunnelMain.run(server);
 * }</pre>
 */
public final class RunnelServer {

  private final String name;
  private final String title;
  private final Declarations declarations;
  private final List<Entity> entities;
  private final String migrations;
  private final List<Consumer<HttpRules>> routes;
  private final List<DevUser> devUsers;

  private RunnelServer(Builder b) {
    this.name = b.name;
    this.title = b.title;
    this.declarations = Objects.requireNonNull(b.declarations, "declarations");
    this.entities = List.copyOf(b.entities);
    this.migrations = b.migrations;
    this.routes = List.copyOf(b.routes);
    this.devUsers = List.copyOf(b.devUsers);
  }

  /** A builder; {@link Builder#name} and {@link Builder#declarations} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The app's name ({@link AppConfig#APP_NAME_RULE}), which names its default slot and publication. */
  public String name() {
    return name;
  }

  /** How the banner names the app ({@code "the team board"}); the name when none was given. */
  public String title() {
    return title;
  }

  /** The app's declarations, as its sync nodes serve them. */
  public Declarations declarations() {
    return declarations;
  }

  /** The entities its replicator publishes. */
  public List<Entity> entities() {
    return entities;
  }

  /** The users the development sign-in signs in. */
  public List<DevUser> devUsers() {
    return devUsers;
  }

  /**
   * The same app with {@code more} development users besides its own (a demo's or a test's users the app's seed
   * does not list).
   *
   * @throws IllegalArgumentException when a user is listed twice (the sign-in refuses that when it is built)
   */
  public RunnelServer withDevUsers(List<DevUser> more) {
    Builder b = new Builder();
    b.name = name;
    b.title = title;
    b.declarations = declarations;
    b.entities.addAll(entities);
    b.migrations = migrations;
    b.routes.addAll(routes);
    b.devUsers.addAll(devUsers);
    b.devUsers.addAll(more);
    return b.build();
  }

  /**
   * The app's configuration from {@code env} ({@link AppConfig#fromEnvironment} under this app's name).
   *
   * @throws io.runnel.wire.ConfigInvalidException ({@code X_CONFIG_INVALID}) for a bad value or combination
   */
  public AppConfig config(Map<String, String> env, Path workingDirectory) {
    return AppConfig.fromEnvironment(env, workingDirectory, name);
  }

  /** Registers the app's own routes (its page) on {@code rules}, after Runnel's, which they never shadow. */
  public void routes(HttpRules rules) {
    for (Consumer<HttpRules> r : routes) {
      r.accept(rules);
    }
  }

  /**
   * Migrates {@code db} to the app's latest schema with Flyway (its history in {@code flyway_schema_history}, so a
   * second run applies nothing); nothing when the app has no migrations.
   *
   * @return the number of migrations applied now
   */
  public int migrate(DataSource db) {
    Objects.requireNonNull(db, "db");
    return migrations.isEmpty() ? 0 : flyway(db).migrate().migrationsExecuted;
  }

  /**
   * How many of the app's migrations {@code db} has not applied yet (all of them on an empty database); the sync
   * role waits for none, since only the {@code all} and {@code replicator} roles migrate.
   */
  public int pendingMigrations(DataSource db) {
    Objects.requireNonNull(db, "db");
    return migrations.isEmpty() ? 0 : flyway(db).info().pending().length;
  }

  private Flyway flyway(DataSource db) {
    return Flyway.configure().dataSource(db).locations(migrations).load();
  }

  /** Collects the app's parts. */
  public static final class Builder {
    private String name = "";
    private String title = "";
    private @Nullable Declarations declarations;
    private final List<Entity> entities = new ArrayList<>();
    private String migrations = "";
    private final List<Consumer<HttpRules>> routes = new ArrayList<>();
    private final List<DevUser> devUsers = new ArrayList<>();

    private Builder() {}

    /**
     * The app's name.
     *
     * @throws IllegalArgumentException when it breaks {@link AppConfig#APP_NAME_RULE}
     */
    public Builder name(String name) {
      AppConfig.defaultSlot(name);
      this.name = name;
      return this;
    }

    /** How the banner names the app (default its name). */
    public Builder title(String title) {
      this.title = Objects.requireNonNull(title, "title");
      return this;
    }

    /** The app's declarations. */
    public Builder declarations(Declarations declarations) {
      this.declarations = Objects.requireNonNull(declarations, "declarations");
      return this;
    }

    /** The entities the replicator publishes (each declared with its table). */
    public Builder entities(List<Entity> entities) {
      this.entities.addAll(entities);
      return this;
    }

    /** Where Flyway finds the app's migrations ({@code classpath:db/migration}); default none. */
    public Builder migrations(String location) {
      this.migrations = Objects.requireNonNull(location, "location");
      return this;
    }

    /** Routes of the app's own (its page, its assets), registered after Runnel's; may be called more than once. */
    public Builder routes(Consumer<HttpRules> routes) {
      this.routes.add(Objects.requireNonNull(routes, "routes"));
      return this;
    }

    /** The development sign-in's users ({@link DevSignIn}); default none. */
    public Builder devUsers(List<DevUser> users) {
      this.devUsers.addAll(users);
      return this;
    }

    /**
     * The app.
     *
     * @throws IllegalStateException without a name or declarations
     */
    public RunnelServer build() {
      if (name.isEmpty() || declarations == null) {
        throw new IllegalStateException("A RunnelServer needs its app's name and declarations");
      }
      if (title.isEmpty()) {
        title = name;
      }
      return new RunnelServer(this);
    }
  }
}
