package io.runnel.example;

import io.runnel.server.RunnelMain;

/**
 * The board's main, {@code ./runnel run} and every role of a deploy: the runtime's {@link RunnelMain} running
 * {@link BoardApp#SERVER}.
 */
public final class Main {

  private Main() {}

  /**
   * Runs until the process is interrupted.
   *
   * @param args none are read
   * @throws Exception when a part cannot start; the message names the cause
   */
  public static void main(String[] args) throws Exception {
    RunnelMain.run(BoardApp.SERVER);
  }
}
