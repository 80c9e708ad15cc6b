package io.runnel.client.fake;

import io.runnel.client.port.Tabs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The tabs of one origin, as Web Locks and a {@code BroadcastChannel} see them: a lock table granting each name to
 * one tab at a time in request order, and messages that reach every other open tab. As in the browser, nothing
 * happens inside the call: grants and messages wait until the test calls {@link #deliver()}.
 */
public final class FakeTabs {

  /** One tab of the origin. */
  public final class Tab implements Tabs {
    private final String name;
    private final List<Consumer<String>> listeners = new ArrayList<>();
    private boolean closed;

    private Tab(String name) {
      this.name = name;
    }

    @Override
    public Lease lead(String lock, Runnable granted) {
      if (closed) {
        return () -> { };
      }
      Request r = new Request(lock, this, granted);
      List<Request> queue = locks.computeIfAbsent(lock, k -> new ArrayList<>());
      queue.add(r);
      if (queue.size() == 1) {
        grant(r);
      }
      return () -> release(r);
    }

    @Override
    public void post(String text) {
      if (closed) {
        return;
      }
      posted.add(name + " " + text);
      for (Tab other : tabs) {
        if (other != this) {
          pending.add(() -> other.hear(text));
        }
      }
    }

    @Override
    public void listen(Consumer<String> listener) {
      listeners.add(listener);
    }

    /** The page closes without a word: the browser releases its locks, and it hears nothing more. */
    public void close() {
      closed = true;
      for (List<Request> queue : locks.values()) {
        for (Request r : List.copyOf(queue)) {
          if (r.tab == this) {
            release(r);
          }
        }
      }
    }

    private void hear(String text) {
      if (!closed) {
        for (Consumer<String> l : List.copyOf(listeners)) {
          l.accept(text);
        }
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** One tab's request for a lock; identity, not value, tells two apart. */
  private static final class Request {
    final String lock;
    final Tab tab;
    final Runnable granted;

    Request(String lock, Tab tab, Runnable granted) {
      this.lock = lock;
      this.tab = tab;
      this.granted = granted;
    }
  }

  private final List<Tab> tabs = new ArrayList<>();
  private final Map<String, List<Request>> locks = new LinkedHashMap<>();
  private final List<Runnable> pending = new ArrayList<>();
  /** Every message posted, as {@code <tab> <text>}, in order. */
  public final List<String> posted = new ArrayList<>();

  /** Opens a tab named {@code name} (for {@link #posted} and failure messages). */
  public Tab open(String name) {
    Tab t = new Tab(name);
    tabs.add(t);
    return t;
  }

  /** Runs the grants and messages waiting, in order, and those they cause, until none is left. */
  public void deliver() {
    while (!pending.isEmpty()) {
      pending.remove(0).run();
    }
  }

  /** The tab holding lock {@code name} (granted or about to be), or null. */
  public Tab holder(String name) {
    List<Request> queue = locks.get(name);
    return queue == null || queue.isEmpty() ? null : queue.get(0).tab;
  }

  /** How many grants and messages wait for {@link #deliver()}. */
  public int waiting() {
    return pending.size();
  }

  private void grant(Request r) {
    pending.add(() -> {
      List<Request> queue = locks.get(r.lock);
      if (!queue.isEmpty() && queue.get(0) == r && !r.tab.closed) {
        r.granted.run();
      }
    });
  }

  private void release(Request r) {
    List<Request> queue = locks.get(r.lock);
    int at = queue.indexOf(r);
    if (at < 0) {
      return;
    }
    queue.remove(at);
    if (at == 0 && !queue.isEmpty()) {
      grant(queue.get(0));
    }
  }
}
