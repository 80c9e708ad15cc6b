package io.runnel.client.port;

/** Random ids: the browser's {@code crypto.randomUUID()}. */
public interface Ids {

  /** A new random UUID, as 36 lower-case characters. */
  String uuid();
}
