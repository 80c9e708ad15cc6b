package io.runnel.dsl;

import io.runnel.wire.JsonCodec;

/** The input of a query or mutator that takes none: the empty JSON object {@code {}}. */
public record NoInput() {

  /** The one value. */
  public static final NoInput INSTANCE = new NoInput();

  /** Decodes {@code {}} only (any member is refused, naming it); encodes {@code {}}. */
  public static final JsonCodec<NoInput> CODEC = JsonCodec.object(r -> INSTANCE, (in, w) -> { });
}
