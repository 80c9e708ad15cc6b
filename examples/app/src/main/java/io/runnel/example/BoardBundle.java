package io.runnel.example;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.JsNumberText;
import io.runnel.client.bundle.HostPorts;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSObject;

/**
 * The entry class of the board's bundle, {@code board-client.js} (compiled by TeaVM in this module's
 * {@code process-classes}): it registers the board's refs ({@link Board}) and exports the runtime's {@code connect}
 * over them, as {@code docs/client.md} ("Bundles") says every app's entry class does. The page imports it:
 * {@code import { connect } from '/js/board-client.js'}.
 */
public final class BoardBundle {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  /** The board's declarations: its entities, queries, mutators with their twins, and the channel {@code org}. */
  static final Refs REFS = new Refs().entity(Board.POSTS).entity(Board.LIKES)
      .query(Board.LIVE_FEED).query(Board.POST).query(Board.MY_LIKES)
      .mutator(Board.CREATE_POST).mutator(Board.LIKE_POST).mutator(Board.UNLIKE_POST).mutator(Board.DELETE_POST)
      .channel(Board.ORG);

  private BoardBundle() {}

  /**
   * The page's client: {@code connect({url, credentials?})} builds it from the browser's ports and opens its socket
   * ({@link JsClient}); it never throws on a call, see {@code docs/client.md}, "The client: connect".
   */
  @JSExport
  public static JsClient connect(JSObject options) {
    return HostPorts.connect(REFS, options);
  }
}
