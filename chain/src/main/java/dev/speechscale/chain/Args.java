package dev.speechscale.chain;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A request's command line, flag by flag, in the spelling the commands parse back: durations in
 * whole seconds or milliseconds, numbers without a trailing {@code .0}, lists comma-separated.
 */
final class Args {
  private final List<String> words = new ArrayList<>();

  /** {@code flag value}. */
  Args add(String flag, Object value) {
    words.add(flag);
    words.add(word(value));
    return this;
  }

  /** {@code flag value}, or nothing when there is no value. */
  Args optional(String flag, @Nullable Object value) {
    return value == null ? this : add(flag, value);
  }

  /** The switch {@code flag} when {@code on}. */
  Args when(boolean on, String flag) {
    if (on) {
      words.add(flag);
    }
    return this;
  }

  /** Another section's words, in order. */
  Args addAll(List<String> more) {
    words.addAll(more);
    return this;
  }

  List<String> words() {
    return List.copyOf(words);
  }

  private static String word(Object value) {
    return switch (value) {
      case Duration d -> duration(d);
      case Double d -> number(d);
      case List<?> l -> String.join(",", l.stream().map(Args::word).toList());
      case Path p -> p.toString();
      default -> value.toString();
    };
  }

  /** {@code 30s}, {@code 250ms}. */
  static String duration(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  /** {@code 10}, {@code 12.5}. */
  static String number(double v) {
    return v == Math.rint(v) && !Double.isInfinite(v)
        ? String.valueOf((long) v)
        : String.format(Locale.ROOT, "%s", v);
  }
}
