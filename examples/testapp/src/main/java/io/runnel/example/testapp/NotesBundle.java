package io.runnel.example.testapp;

import io.runnel.client.Refs;
import io.runnel.client.browser.JsClient;
import io.runnel.client.browser.JsNumberText;
import io.runnel.client.bundle.HostPorts;
import io.runnel.wire.Numbers;
import org.teavm.jso.JSExport;
import org.teavm.jso.JSObject;

/**
 * The entry class of the app's bundle, {@code notes-app.js} (compiled by TeaVM in this module's
 * {@code process-classes}): it registers the app's refs ({@link Notes}) and exports the runtime's {@code connect}
 * over them, as {@code docs/client.md} ("Bundles") says every app's entry class does. The page imports it:
 * {@code import { connect } from '/js/notes-app.js'}.
 */
public final class NotesBundle {

  static {
    Numbers.useInBrowser(new JsNumberText());
  }

  /** The app's declarations. */
  static final Refs REFS = new Refs().entity(Notes.NOTES).query(Notes.NOTES_OF_LIST).mutator(Notes.PUT_NOTE);

  private NotesBundle() {}

  /**
   * The page's client: {@code connect({url, credentials?})} builds it from the browser's ports and opens its socket
   * ({@link JsClient}); it never throws on a call, see {@code docs/client.md}, "The client: connect".
   */
  @JSExport
  public static JsClient connect(JSObject options) {
    return HostPorts.connect(REFS, options);
  }
}
