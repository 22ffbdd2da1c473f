package dev.speechscale.cli;

import dev.speechscale.platform.NanoClock;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The clock that stamps the {@code created_at} of the artifacts derived from files alone ({@code
 * plan}, {@code simulate}): {@code SOURCE_DATE_EPOCH} (whole seconds since 1970, the
 * reproducible-builds convention) when it is set, the system's clock otherwise. With it set, the
 * same command on the same inputs writes the same bytes, time stamp and report included.
 *
 * <p>The variable is read when an artifact is stamped ({@link NanoClock#wall()}), not when the
 * command line is built, so a bad value fails the command that would use it, with a message naming
 * the variable, the value and the fix.
 */
final class SourceDateEpoch {
  static final String VARIABLE = "SOURCE_DATE_EPOCH";

  private SourceDateEpoch() {}

  /** The process's environment over the system's clock. */
  static NanoClock fromEnvironment() {
    return clock(System.getenv(), NanoClock.SYSTEM.wall());
  }

  /**
   * The variable of {@code environment}, else {@code fallback}, beside the system's nanoseconds.
   */
  static NanoClock clock(Map<String, String> environment, Clock fallback) {
    Map<String, String> copy = Map.copyOf(environment);
    return new NanoClock() {
      @Override
      public long nanoTime() {
        return NanoClock.SYSTEM.nanoTime();
      }

      @Override
      public Clock wall() {
        return stamped(copy.get(VARIABLE), fallback);
      }
    };
  }

  private static Clock stamped(@Nullable String value, Clock fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long seconds = Long.parseLong(value.trim());
      if (seconds >= 0) {
        return Clock.fixed(Instant.ofEpochSecond(seconds), ZoneOffset.UTC);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CliException(
        VARIABLE
            + "="
            + value
            + " is not whole seconds since 1970-01-01T00:00:00Z; set it to a number such as"
            + " $(date +%s) or unset it to stamp artifacts with the current time");
  }
}
