package io.runnel.client.fake;

import io.runnel.client.port.DurableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A durable store in a sorted map; {@code list} answers at once, or (as IndexedDB does) with what was stored when it
 * was asked, when the test releases it.
 */
public final class MapStore implements DurableStore {

  /** What is stored now. */
  public final TreeMap<String, String> map = new TreeMap<>();
  /** Every put and remove, as {@code put <key>} and {@code remove <key>}. */
  public final List<String> log = new ArrayList<>();
  /** When set, {@code list} answers only at {@link #releaseLists()}, as IndexedDB answers later. */
  public boolean holdLists;
  /** When set, every {@code put} is refused (as a full quota refuses it), logged as {@code refused <key>}. */
  public boolean refusePuts;
  private final List<Runnable> heldLists = new ArrayList<>();
  private Consumer<String> refused = key -> { };

  @Override
  public boolean put(String key, String value) {
    if (refusePuts) {
      log.add("refused " + key);
      return false;
    }
    log.add("put " + key);
    map.put(key, value);
    return true;
  }

  @Override
  public void remove(String key) {
    log.add("remove " + key);
    map.remove(key);
  }

  @Override
  public void list(String prefix, Consumer<Map<String, String>> done) {
    Map<String, String> now = Map.copyOf(map.subMap(prefix, prefix + Character.MAX_VALUE));
    Runnable answer = () -> done.accept(now);
    if (holdLists) {
      heldLists.add(answer);
    } else {
      answer.run();
    }
  }

  @Override
  public void onRefused(Consumer<String> listener) {
    refused = listener;
  }

  /** The write of {@code key}, accepted by {@code put}, fails later (a full quota): it goes, and the listener hears. */
  public void refuseLater(String key) {
    log.add("refused later " + key);
    map.remove(key);
    refused.accept(key);
  }

  /** Answers every held {@code list}. */
  public void releaseLists() {
    List<Runnable> now = List.copyOf(heldLists);
    heldLists.clear();
    now.forEach(Runnable::run);
  }
}
