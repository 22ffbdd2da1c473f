package dev.speechscale.chain;

import dev.speechscale.artifacts.FleetFigures;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.ReplayRows;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** One row of replay's comparison: a predicted figure against the measured one and its target. */
final class ComparisonRows {
  private ComparisonRows() {}

  /**
   * A quiet minute's p95, judged against what its samples can tell: within ±15 % is within; beyond
   * it, a miss only when the prediction also lies outside the measured p95's 95 % interval. A
   * prediction beyond ±15 % but inside the interval (which is then wider than the tolerance) is
   * {@code unresolved}: the minute held too few requests to tell a miss from sampling noise (the
   * quickstart's 30 s quiet tail, about 150 requests, gives the p95 an interval of −25 % … +90 % on
   * this fleet; ±15 % takes of the order of a thousand). The tolerance is unchanged.
   */
  static ReplayArtifact.Row p95(
      int minute, @Nullable Double predicted, FleetFigures.Minute measured) {
    ReplayArtifact.Row row =
        relative(
            "p95_ttfab_ms",
            minute,
            predicted,
            measured.p95TtfabMs(),
            ReplayComparison.P95_TOLERANCE_PERCENT,
            "no request served");
    if (row.result() != ReplayArtifact.Result.MISS || row.error() == null || predicted == null) {
      return row;
    }
    FleetFigures.Interval interval = measured.p95TtfabInterval();
    if (interval != null && !interval.contains(predicted)) {
      return row;
    }
    String why =
        interval == null
            ? measured.ok() + " requests: too few for an interval of the p95"
            : String.format(
                Locale.ROOT,
                "inside the measured p95's 95 %% interval %.1f–%.1f ms (%d requests):"
                    + " too few to tell a ±%.0f %% miss",
                interval.lowMs(),
                interval.highMs(),
                measured.ok(),
                ReplayComparison.P95_TOLERANCE_PERCENT);
    return new ReplayArtifact.Row(
        row.figure(),
        minute,
        predicted,
        row.measured(),
        row.error(),
        row.errorUnit(),
        row.tolerance(),
        ReplayArtifact.Result.UNRESOLVED,
        why);
  }

  /** The {@code minute} of a row about the whole run rather than one minute of it. */
  static final @Nullable Integer WHOLE_RUN = null;

  static ReplayArtifact.Row judged(
      String figure,
      @Nullable Integer minute,
      double predicted,
      double measured,
      double error,
      String unit,
      double tolerance) {
    return ReplayRows.judged(
        figure,
        minute,
        predicted,
        measured,
        error,
        unit,
        tolerance,
        Math.abs(error) <= tolerance ? ReplayArtifact.Result.WITHIN : ReplayArtifact.Result.MISS);
  }

  static ReplayArtifact.Row relative(
      String figure,
      @Nullable Integer minute,
      @Nullable Double predicted,
      @Nullable Double measured,
      double tolerance,
      String missing) {
    Double error = percent(predicted, measured);
    if (predicted == null || measured == null || error == null) {
      return ReplayRows.unmeasured(
          figure,
          minute,
          predicted,
          measured,
          "%",
          tolerance,
          predicted == null && measured == null
              ? ReplayArtifact.Result.NOT_JUDGED
              : ReplayArtifact.Result.MISS,
          predicted == null && measured == null
              ? missing + " on either side"
              : missing + " on one side only");
    }
    return judged(figure, minute, predicted, measured, error, "%", tolerance);
  }

  static @Nullable Double percent(@Nullable Double predicted, @Nullable Double measured) {
    if (predicted == null || measured == null || measured == 0) {
      return null;
    }
    return 100 * (predicted - measured) / measured;
  }
}
