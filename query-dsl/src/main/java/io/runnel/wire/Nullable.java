package io.runnel.wire;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type use where {@code null} is allowed; everywhere else in Runnel's API null is refused with
 * {@code requireNonNull}. (Runnel's own, so that {@code query-dsl} needs nothing but the JDK.)
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE_USE, ElementType.PARAMETER, ElementType.METHOD, ElementType.FIELD})
public @interface Nullable {}
