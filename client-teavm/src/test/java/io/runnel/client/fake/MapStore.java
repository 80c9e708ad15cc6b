package io.runnel.client.fake;

import io.runnel.client.port.DurableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A durable store in a sorted map; {@code list} answers at once, or (as IndexedDB does) with what was stored when it
 * was asked, when the test releases it. Each tab may write through its own {@link #connection()}, whose writes, once
 * {@link #deferCommits} is set, reach the map (and the other tabs) only at {@link #commit()}, as IndexedDB commits a
 * transaction after {@code put} returned; a connection's {@code list} waits for its own earlier writes.
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
  /** When set, a {@link #connection()}'s writes wait for {@link #commit()}. */
  public boolean deferCommits;
  private final List<Runnable> heldLists = new ArrayList<>();
  private final List<Runnable> uncommitted = new ArrayList<>();
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

  /** One tab's connection to this store (see the class comment). */
  public DurableStore connection() {
    return new DurableStore() {
      private final List<Runnable> mine = new ArrayList<>();

      @Override
      public boolean put(String key, String value) {
        return later(() -> MapStore.this.put(key, value));
      }

      @Override
      public void remove(String key) {
        later(() -> MapStore.this.remove(key));
      }

      @Override
      public void list(String prefix, Consumer<Map<String, String>> done) {
        if (mine.isEmpty()) {
          MapStore.this.list(prefix, done);
        } else {
          later(() -> MapStore.this.list(prefix, done));
        }
      }

      @Override
      public void onRefused(Consumer<String> listener) {
        MapStore.this.onRefused(listener);
      }

      private boolean later(Runnable write) {
        if (!deferCommits) {
          write.run();
          return true;
        }
        mine.add(write);
        uncommitted.add(() -> {
          mine.remove(write);
          write.run();
        });
        return true;
      }
    };
  }

  /** Commits every connection's writes, in the order they were made, answering the lists that waited for them. */
  public void commit() {
    while (!uncommitted.isEmpty()) {
      uncommitted.remove(0).run();
    }
  }

  /** Answers every held {@code list}. */
  public void releaseLists() {
    List<Runnable> now = List.copyOf(heldLists);
    heldLists.clear();
    now.forEach(Runnable::run);
  }
}
