package io.runnel.sync.channel.internal;

/** Helpers for the causes of channel refusals. */
public final class Causes {

  private Causes() {}

  /** {@code text} cut to 120 characters, for a cause that echoes a client's string. */
  public static String echo(String text) {
    return text.length() <= 120 ? text : text.substring(0, 117) + "...";
  }
}
