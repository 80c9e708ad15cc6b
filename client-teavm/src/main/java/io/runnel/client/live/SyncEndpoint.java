package io.runnel.client.live;

import java.util.function.Consumer;

/**
 * Where the socket goes: called before each attempt, so the browser can fetch a fresh single-use ticket
 * ({@code POST /v1/tickets}) and answer {@code wss://host/v1/sync?ticket=…}.
 */
@FunctionalInterface
public interface SyncEndpoint {

  /** Calls {@code ready} with the URL to open, or {@code failed} with why there is none now (the client backs off). */
  void url(Consumer<String> ready, Consumer<String> failed);
}
