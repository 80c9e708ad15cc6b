package io.runnel.testing;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The Jupiter extension behind {@link FreshDatabase}: one database per test class, created on first use and
 * dropped (with its replication slots) when the class's extension context closes.
 */
public final class FreshDatabaseExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(FreshDatabaseExtension.class);

  /** Creates the extension; JUnit calls this. */
  public FreshDatabaseExtension() {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestDatabase.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExtensionContext classContext = classContext(context);
    return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(
        "database", key -> new ClosingDatabase(
            EmbeddedPostgresServer.shared().createDatabase(classContext.getRequiredTestClass().getSimpleName())),
        ClosingDatabase.class).database();
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
      c = c.getParent().get();
    }
    return c;
  }

  /** Dropped by JUnit when the class's store closes. */
  private record ClosingDatabase(TestDatabase database) implements AutoCloseable {
    @Override
    public void close() {
      database.close();
    }
  }
}
