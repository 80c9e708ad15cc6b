package io.runnel.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit Jupiter test class a fresh database on the JVM's embedded PostgreSQL: declare a {@link
 * TestDatabase} parameter on a test method, a {@code @BeforeAll} method or the constructor.
 *
 * <p>For jqwik properties (which do not run Jupiter extensions) call {@link
 * EmbeddedPostgresServer#createDatabase(String)} in {@code @BeforeContainer} and close it in {@code
 * @AfterContainer}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(FreshDatabaseExtension.class)
public @interface FreshDatabase {}
