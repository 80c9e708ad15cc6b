package io.runnel.dsl;

/**
 * A column value that knows how to add an integer to itself ({@link PgNumeric}). {@link Row#plus} calls it through
 * this interface, so a TeaVM bundle links the addition, and {@code java.math} behind it, only when it makes such
 * values (a virtual call links only the classes that reach it; a call on the final class would link always).
 */
interface Summand {

  /** This value plus {@code delta}. */
  Object plus(long delta);
}
