package io.runnel.example;

import io.runnel.server.AllRole;
import io.runnel.server.AppConfig;
import io.runnel.server.RunnelServer;
import java.nio.file.Path;
import java.util.Map;

/**
 * The team board on the runtime ({@link RunnelServer}): its name, declarations, entities, migrations, page and seed
 * users, which is all the board brings; the roles, the configuration, the embedded PostgreSQL, drain and sign-in are
 * the runtime's.
 */
public final class BoardApp {

  /** The app's name, which names its default slot and publication. */
  public static final String NAME = "board";

  /** The replication slot and publication the board's replicator uses unless configured otherwise. */
  public static final String SLOT = AppConfig.defaultSlot(NAME);

  /** The board as the runtime runs it. */
  public static final RunnelServer SERVER = RunnelServer.builder().name(NAME).title("the team board")
      .declarations(BoardServer.declarations()).entities(BoardServer.ENTITIES).migrations(BoardServer.MIGRATIONS)
      .routes(BoardPage.load()::routes).devUsers(BoardServer.DEV_USERS).build();

  private BoardApp() {}

  /**
   * The board's configuration from {@code env} ({@link AppConfig#fromEnvironment}, as app {@value #NAME}).
   *
   * @throws io.runnel.wire.ConfigInvalidException ({@code X_CONFIG_INVALID}) for a bad value or combination
   */
  public static AppConfig config(Map<String, String> env, Path workingDirectory) {
    return SERVER.config(env, workingDirectory);
  }

  /**
   * The board whole in one process ({@link AllRole#start}), started.
   *
   * @throws InterruptedException when interrupted while the replicator starts streaming
   */
  public static AllRole start(AppConfig config) throws InterruptedException {
    return AllRole.start(SERVER, config);
  }
}
