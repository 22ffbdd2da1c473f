package dev.speechscale.cli;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The clock that stamps the {@code created_at} of the artifacts derived from files alone ({@code
 * plan}, {@code simulate}): {@code SOURCE_DATE_EPOCH} (whole seconds since 1970, the
 * reproducible-builds convention) when it is set, the system's clock otherwise. With it set, the
 * same command on the same inputs writes the same bytes, time stamp and report included.
 *
 * <p>The variable is read when an artifact is stamped, not when the command line is built, so a bad
 * value fails the command that would use it, with a message naming the variable, the value and the
 * fix.
 */
final class ArtifactClock extends Clock {
  static final String VARIABLE = "SOURCE_DATE_EPOCH";

  private final Map<String, String> environment;
  private final Clock fallback;

  ArtifactClock(Map<String, String> environment, Clock fallback) {
    this.environment = Map.copyOf(environment);
    this.fallback = fallback;
  }

  /** The process's environment over the system's UTC clock. */
  static ArtifactClock fromEnvironment() {
    return new ArtifactClock(System.getenv(), Clock.systemUTC());
  }

  @Override
  public Instant instant() {
    @Nullable String value = environment.get(VARIABLE);
    if (value == null || value.isBlank()) {
      return fallback.instant();
    }
    try {
      long seconds = Long.parseLong(value.trim());
      if (seconds >= 0) {
        return Instant.ofEpochSecond(seconds);
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

  @Override
  public ZoneId getZone() {
    return fallback.getZone();
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return new ArtifactClock(environment, fallback.withZone(zone));
  }
}
