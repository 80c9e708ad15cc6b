package io.runnel.client.fake;

import io.runnel.client.port.Ids;

/** Ids {@code 00000000-0000-0000-<group>-00000000000N}, counting up from 1; the group tells tabs apart. */
public final class CountingIds implements Ids {
  private final String group;
  private int n;

  /** Ids in group {@code 0000}. */
  public CountingIds() {
    this("0000");
  }

  /** Ids in {@code group}, four hex digits. */
  public CountingIds(String group) {
    this.group = group;
  }

  @Override
  public String uuid() {
    n++;
    String digits = Integer.toString(n);
    return "00000000-0000-0000-" + group + "-" + "000000000000".substring(digits.length()) + digits;
  }
}
