package dev.speechscale.loadgen;

import dev.speechscale.artifacts.Histograms;
import dev.speechscale.artifacts.QmaxRecheck;
import java.time.Duration;
import java.util.Objects;

/**
 * A run's reference rung measured again, beside its first measurement (see {@link DriftRecheck}).
 *
 * @param when when it was re-measured, in words ("at the end of run 1", ...)
 * @param first the rung's first measurement (a step of the ladder)
 * @param again the re-measurement (not a step: it would count the rung twice)
 */
public record ReferenceRecheck(String when, RungReport first, RungReport again) {
  public ReferenceRecheck {
    Objects.requireNonNull(when, "when");
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(again, "again");
    if (first.concurrency() != again.concurrency() || first.runIndex() != again.runIndex()) {
      throw new LoadgenException(
          "a re-check must measure its reference rung again: first N="
              + first.concurrency()
              + " in run "
              + (first.runIndex() + 1)
              + ", again N="
              + again.concurrency()
              + " in run "
              + (again.runIndex() + 1));
    }
  }

  /** The artifact's view: both measurements' throughput and p95, and the raw re-measurement. */
  public QmaxRecheck toArtifact() {
    WindowStats s = again.stats();
    Duration elapsed =
        first.windowEnd() == null || again.windowEnd() == null
            ? Duration.ZERO
            : Duration.between(first.windowEnd(), again.windowEnd());
    return new QmaxRecheck(
        again.runIndex(),
        again.concurrency(),
        first.stepIndex(),
        again.stepIndex(),
        when,
        Math.max(0, elapsed.toMillis() / 1000.0),
        first.stats().achievedRps(),
        Objects.requireNonNull(first.stats().ttfabP95Ms(), "a reference rung has a p95"),
        s.achievedRps(),
        s.ok() > 0 ? s.ttfabP95Ms() : null,
        s.ok(),
        again.usable(),
        again.verdict().reason(),
        s.ok() > 0 ? Histograms.encode(s.ttfabHistogram()) : null,
        null,
        null,
        null);
  }
}
