package io.runnel.testing;

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
import java.util.TreeSet;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The half of the internal-package rule that reads compiled classes ({@code docs/reading-the-code.md}, "Internal
 * packages"): what an app can reach of a module's API packages, the public and protected signatures of their public
 * types (supertypes, constructors, methods, fields, nested types, type arguments, bounds and array components
 * included), never names an internal type, so an app never needs one to call the API.
 */
public final class ApiSurface {

  private ApiSurface() {}

  /** Whether a class is internal: its package has an {@code internal} segment. */
  public static boolean internal(Class<?> type) {
    return internalPackage(type.getPackageName());
  }

  /** Whether {@code pkg} has an {@code internal} segment ({@code io.runnel.sync.socket.internal}). */
  public static boolean internalPackage(String pkg) {
    return ("." + pkg + ".").contains(".internal.");
  }

  /**
   * The leaks of every public type of {@code module}'s API packages (each {@code src/main/java} file outside an
   * internal package), loaded without running their static initializers (a browser type's natives never run).
   *
   * @param module the module's directory from the repository's root ({@code sync-node})
   * @param minimum how many public API types the module has at least
   * @return each leak as the signature and the internal type it names; empty when the rule holds
   * @throws IllegalStateException when the module has fewer than {@code minimum} public API types (the walk missed
   *     its sources) or a source names a class that is not on the class path
   */
  public static List<String> leaksOfModule(String module, int minimum) {
    Path sources = SourceTree.root().resolve(module).resolve("src/main/java");
    ClassLoader loader = ApiSurface.class.getClassLoader();
    List<String> out = new ArrayList<>();
    int types = 0;
    for (Path p : SourceTree.javaFiles(sources)) {
      String file = sources.relativize(p).toString().replace('\\', '/');
      String name = file.substring(0, file.length() - ".java".length()).replace('/', '.');
      if (name.endsWith("package-info")) {
        continue;
      }
      Class<?> type;
      try {
        type = Class.forName(name, false, loader);
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException("not on the class path: " + name, e);
      }
      if (!internal(type) && Modifier.isPublic(type.getModifiers())) {
        types++;
        out.addAll(leaks(type, ApiSurface::internal));
      }
    }
    if (types < minimum) {
      throw new IllegalStateException("read only " + types + " API types of " + module + ": the walk missed them");
    }
    return out;
  }

  /**
   * The public and protected signatures of {@code type}, and of its public and protected nested types, that name a
   * type {@code internal} accepts.
   *
   * @return each as the member's generic signature, a colon and the internal type's name
   */
  public static List<String> leaks(Class<?> type, Predicate<Class<?>> internal) {
    List<String> out = new ArrayList<>();
    check(type.getName() + " extends", type.getGenericSuperclass(), internal, out);
    for (Type t : type.getGenericInterfaces()) {
      check(type.getName() + " implements", t, internal, out);
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (visible(c.getModifiers()) && !c.isSynthetic()) {
        for (Type t : c.getGenericParameterTypes()) {
          check(c.toGenericString(), t, internal, out);
        }
        for (Type t : c.getGenericExceptionTypes()) {
          check(c.toGenericString(), t, internal, out);
        }
      }
    }
    for (Method m : type.getDeclaredMethods()) {
      if (visible(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
        check(m.toGenericString(), m.getGenericReturnType(), internal, out);
        for (Type t : m.getGenericParameterTypes()) {
          check(m.toGenericString(), t, internal, out);
        }
        for (Type t : m.getGenericExceptionTypes()) {
          check(m.toGenericString(), t, internal, out);
        }
      }
    }
    for (Field f : type.getDeclaredFields()) {
      if (visible(f.getModifiers()) && !f.isSynthetic()) {
        check(f.toGenericString(), f.getGenericType(), internal, out);
      }
    }
    for (Class<?> nested : type.getDeclaredClasses()) {
      if (visible(nested.getModifiers())) {
        out.addAll(leaks(nested, internal));
      }
    }
    return out;
  }

  private static void check(String where, @Nullable Type type, Predicate<Class<?>> internal, List<String> out) {
    Set<String> named = new TreeSet<>();
    collect(type, internal, named, new HashSet<>());
    named.forEach(t -> out.add(where + ": " + t));
  }

  private static void collect(@Nullable Type type, Predicate<Class<?>> internal, Set<String> named, Set<Type> seen) {
    if (type == null || !seen.add(type)) {
      return;
    }
    switch (type) {
      case Class<?> c -> {
        Class<?> component = c;
        while (component.isArray()) {
          component = component.getComponentType();
        }
        if (internal.test(component)) {
          named.add(component.getName());
        }
      }
      case ParameterizedType p -> {
        collect(p.getRawType(), internal, named, seen);
        collect(p.getOwnerType(), internal, named, seen);
        for (Type a : p.getActualTypeArguments()) {
          collect(a, internal, named, seen);
        }
      }
      case GenericArrayType a -> collect(a.getGenericComponentType(), internal, named, seen);
      case WildcardType w -> {
        for (Type b : w.getUpperBounds()) {
          collect(b, internal, named, seen);
        }
        for (Type b : w.getLowerBounds()) {
          collect(b, internal, named, seen);
        }
      }
      case TypeVariable<?> v -> {
        for (Type b : v.getBounds()) {
          collect(b, internal, named, seen);
        }
      }
      default -> throw new IllegalStateException("a type of an unknown kind: " + type);
    }
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }
}
