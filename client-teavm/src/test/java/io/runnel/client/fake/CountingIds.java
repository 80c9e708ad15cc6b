package io.runnel.client.fake;

import io.runnel.client.port.Ids;

/** Ids {@code 00000000-0000-0000-0000-00000000000N}, counting up from 1. */
public final class CountingIds implements Ids {
  private int n;

  @Override
  public String uuid() {
    n++;
    String digits = Integer.toString(n);
    return "00000000-0000-0000-0000-" + "000000000000".substring(digits.length()) + digits;
  }
}
