package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.sync.auth.internal.GrantStats;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.http.internal.HttpApi;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.sync.metrics.internal.NodeMetrics;
import io.runnel.sync.socket.internal.FrameCodec;
import io.runnel.sync.socket.internal.TokenBucket;
import io.runnel.testing.SourceTree;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The other half of the internal-package rule ({@code docs/reading-the-code.md}, "Internal packages"): what an app
 * can reach of the node's API packages, the public and protected signatures of their public types, never names an
 * internal type, so an app never needs one to call the API.
 */
class ApiSurfaceTest {

  @Test
  void theApiPackagesExposeNoInternalType() throws ClassNotFoundException {
    Path sources = SourceTree.root().resolve("sync-node/src/main/java");
    List<String> found = new ArrayList<>();
    int types = 0;
    for (Path p : SourceTree.javaFiles(sources)) {
      String name = sources.relativize(p).toString().replace('\\', '/').replace('/', '.');
      name = name.substring(0, name.length() - ".java".length());
      if (name.endsWith("package-info") || internal(name)) {
        continue;
      }
      Class<?> type = Class.forName(name);
      if (Modifier.isPublic(type.getModifiers())) {
        types++;
        found.addAll(leaks(type));
      }
    }
    assertTrue(types > 20, "read only " + types + " API types: the walk missed the sources");
    assertEquals(List.of(), found, "an API signature names an internal type");
  }

  @Test
  void theCheckSeesEachKindOfSignature() {
    assertAll(
        () -> assertEquals(List.of(), leaks(Clean.class)),
        () -> assertEquals(4, leaks(Leaky.class).size(), () -> leaks(Leaky.class).toString()),
        () -> assertEquals(1, leaks(Outer.class).size(), "a public nested type is API too"));
  }

  /** The public and protected signatures of {@code type} (and of its public nested types) that name internal types. */
  static List<String> leaks(Class<?> type) {
    List<String> out = new ArrayList<>();
    check(type.getName() + " extends", type.getGenericSuperclass(), out);
    for (Type t : type.getGenericInterfaces()) {
      check(type.getName() + " implements", t, out);
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (visible(c.getModifiers()) && !c.isSynthetic()) {
        for (Type t : c.getGenericParameterTypes()) {
          check(c.toGenericString(), t, out);
        }
        for (Type t : c.getGenericExceptionTypes()) {
          check(c.toGenericString(), t, out);
        }
      }
    }
    for (Method m : type.getDeclaredMethods()) {
      if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
        check(m.toGenericString(), m.getGenericReturnType(), out);
        for (Type t : m.getGenericParameterTypes()) {
          check(m.toGenericString(), t, out);
        }
        for (Type t : m.getGenericExceptionTypes()) {
          check(m.toGenericString(), t, out);
        }
      }
    }
    for (Field f : type.getDeclaredFields()) {
      if (visible(f.getModifiers()) && !f.isSynthetic()) {
        check(f.toGenericString(), f.getGenericType(), out);
      }
    }
    for (Class<?> nested : type.getDeclaredClasses()) {
      if (Modifier.isPublic(nested.getModifiers()) || Modifier.isProtected(nested.getModifiers())) {
        out.addAll(leaks(nested));
      }
    }
    return out;
  }

  private static void check(String where, Type type, List<String> out) {
    Set<String> internal = new HashSet<>();
    collect(type, internal, new HashSet<>());
    internal.stream().sorted().forEach(t -> out.add(where + ": " + t));
  }

  private static void collect(Type type, Set<String> internal, Set<Type> seen) {
    if (type == null || !seen.add(type)) {
      return;
    }
    switch (type) {
      case Class<?> c -> {
        Class<?> component = c;
        while (component.isArray()) {
          component = component.getComponentType();
        }
        if (internal(component.getName())) {
          internal.add(component.getName());
        }
      }
      case ParameterizedType p -> {
        collect(p.getRawType(), internal, seen);
        collect(p.getOwnerType(), internal, seen);
        for (Type a : p.getActualTypeArguments()) {
          collect(a, internal, seen);
        }
      }
      case GenericArrayType a -> collect(a.getGenericComponentType(), internal, seen);
      case WildcardType w -> {
        for (Type b : w.getUpperBounds()) {
          collect(b, internal, seen);
        }
        for (Type b : w.getLowerBounds()) {
          collect(b, internal, seen);
        }
      }
      case TypeVariable<?> v -> {
        for (Type b : v.getBounds()) {
          collect(b, internal, seen);
        }
      }
      default -> throw new AssertionError("a type of an unknown kind: " + type);
    }
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static boolean internal(String className) {
    return className.contains(".internal.");
  }

  /** A public type whose package-private members may name anything. */
  public static final class Clean {
    /** Public, naming API types only. */
    public Clean(Supplier<NodeStats> stats) {}

    Clean(LiveQueryRegistry registry) {}

    /** Public, naming API types only. */
    public List<? extends Degraded> degraded() {
      return List.of();
    }

    private TokenBucket bucket() {
      throw new UnsupportedOperationException();
    }
  }

  /** A public type leaking one internal type in each of four places. */
  public abstract static class Leaky {
    /** A public field. */
    public @Nullable HttpApi api;

    /** A parameter's type argument. */
    public Leaky(List<GrantStats> stats) {}

    /** A return type's wildcard bound. */
    public abstract Supplier<? super NodeMetrics> metrics();

    /** An array's component. */
    protected abstract void frames(FrameCodec[] codecs);
  }

  /** A public type whose public nested type leaks. */
  public static final class Outer {
    /** The nested type. */
    public interface Inner {
      /** The leak. */
      ChannelHub hub();
    }
  }
}
