package io.runnel.testing;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** {@link ApiSurface} sees an internal type in each place a signature can name one, and nowhere else. */
class ApiSurfaceTest {

  /** In these fixtures a type is internal when its name starts with {@code Hidden}. */
  private static final Predicate<Class<?>> HIDDEN = c -> c.getSimpleName().startsWith("Hidden");

  @Test
  void eachPlaceASignatureNamesATypeIsSeen() {
    assertAll(
        () -> assertEquals(List.of(), ApiSurface.leaks(Clean.class, HIDDEN)),
        () -> assertEquals(6, ApiSurface.leaks(Leaky.class, HIDDEN).size(),
            () -> ApiSurface.leaks(Leaky.class, HIDDEN).toString()),
        () -> assertEquals(1, ApiSurface.leaks(Outer.class, HIDDEN).size(), "a public nested type is API too"),
        () -> assertEquals(1, ApiSurface.leaks(Extending.class, HIDDEN).size(), "a supertype"));
  }

  @Test
  void aTypeIsInternalByAWholeSegmentOfItsPackage() {
    assertAll(
        () -> assertTrue(ApiSurface.internalPackage("com.example.socket.internal")),
        () -> assertTrue(ApiSurface.internalPackage("com.example.internal.deep")),
        () -> assertFalse(ApiSurface.internalPackage("com.example.internalish")),
        () -> assertFalse(ApiSurface.internalPackage("com.example.sync")),
        () -> assertFalse(ApiSurface.internal(String.class)));
  }

  /** Named by what no API may name. */
  static class HiddenPart {}

  /** A public type whose package-private and private members may name anything. */
  public static final class Clean {
    /** Public, naming visible types only. */
    public Clean(Supplier<String> text) {}

    Clean(HiddenPart part) {}

    /** Public, naming visible types only. */
    public List<? extends Number> numbers() {
      return List.of();
    }

    private HiddenPart part() {
      return new HiddenPart();
    }
  }

  /** A public type leaking a hidden type in six places. */
  public abstract static class Leaky {
    /** A public field, with a type annotation. */
    public @Nullable HiddenPart field;

    /** A parameter's type argument. */
    public Leaky(List<HiddenPart> parts) {}

    /** A thrown type. */
    protected Leaky() throws HiddenFailure {}

    /** A return type's wildcard bound. */
    public abstract Supplier<? super HiddenPart> supplier();

    /** An array's component. */
    protected abstract void parts(HiddenPart[] parts);

    /** A type variable's bound. */
    public abstract <T extends HiddenPart> T bounded();
  }

  /** A failure no API may name. */
  static final class HiddenFailure extends Exception {
    private static final long serialVersionUID = 1L;
  }

  /** A public type whose public nested type leaks. */
  public static final class Outer {
    /** The nested type. */
    public interface Inner {
      /** The leak. */
      HiddenPart part();
    }
  }

  /** A public type extending a hidden one. */
  public static final class Extending extends HiddenPart {}
}
