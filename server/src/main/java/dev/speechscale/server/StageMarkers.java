package dev.speechscale.server;

import dev.speechscale.platform.ScaleOutStage;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * Startup stage markers, one stdout line each, byte-exact:
 *
 * <pre>=== STAGE &lt;name&gt; t=YYYY-MM-DDTHH:MM:SS.mmmZ elapsed_s=&lt;seconds, 3 decimals&gt; ===
 * </pre>
 *
 * in the order of {@link ScaleOutStage#containerStages()}. {@code t} is UTC, truncated to the
 * millisecond; {@code elapsed_s} counts from {@code CONTAINER_START_EPOCH} when set, else from the
 * process start. {@code tts-bench ttotal} parses these lines.
 *
 * @param clock the wall clock each marker's {@code t} is read from
 * @param epoch where {@code elapsed_s} counts from
 * @param out where the markers are printed
 */
record StageMarkers(Clock clock, Instant epoch, PrintStream out) {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** Prints the marker for {@code stage} and flushes. */
  void mark(ScaleOutStage stage) {
    String line = format(stage, clock.instant(), epoch);
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  static String format(ScaleOutStage stage, Instant now, Instant epoch) {
    Instant truncated = now.truncatedTo(ChronoUnit.MILLIS);
    double elapsed = java.time.Duration.between(epoch, now).toNanos() / 1e9;
    return "=== STAGE "
        + stage.wireName()
        + " t="
        + STAMP.format(truncated)
        + String.format(Locale.ROOT, " elapsed_s=%.3f ===", elapsed);
  }
}
