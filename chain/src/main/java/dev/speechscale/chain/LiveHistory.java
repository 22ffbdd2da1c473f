package dev.speechscale.chain;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Statistic;
import dev.speechscale.simulator.FleetSimulator;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The live endpoint's own metric history before a replay's trace, read back from its platform, so
 * the prediction's alarms start with the very periods the live alarms had: the replay's warm-up,
 * the wait for the period boundary, and no data at all from before the endpoint was in service.
 *
 * <p>A simulated history (a quiet window at the trace's first rate, or none) gets this wrong both
 * ways: in run L2 (measurements/simulator-calibration.md) the live fleet scaled in at 121 s on
 * three low 60 s periods, the first of them the minute before the trace, which the prediction
 * without history did not have; a simulated 180 s window would have scaled it in at 60 s, when the
 * live alarm still lacked its oldest period.
 *
 * <p>The history is ConcurrentRequestsPerModel's Average at the platform's finest period (a second
 * locally, 10 s on AWS), spread over that period's seconds: exact for the plan's scale-in alarm
 * (Average over 60 s) and, with 1 s samples, for its target-tracking alarm (Maximum over 10 s);
 * with 10 s samples the history's 10 s Maximum reads as their Average, the pre-trace quiet either
 * way.
 */
final class LiveHistory {
  private LiveHistory() {}

  /**
   * Reads {@code seconds} of history before {@code traceStart} (truncated to the second). A second
   * without a datapoint (no instance in service yet) stays without one: the live alarm had
   * INSUFFICIENT_DATA there, and so will the prediction's.
   */
  static FleetSimulator.PreRoll.Recorded read(
      Platform platform, String endpoint, Instant traceStart, long seconds) {
    Instant end = traceStart.truncatedTo(ChronoUnit.SECONDS);
    Instant start = end.minusSeconds(seconds);
    Duration period = platform.finestMetricPeriod();
    MetricSeries series =
        platform.metric(
            endpoint,
            new MetricQuery(
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                Statistic.AVERAGE,
                period,
                start,
                end));
    return of(series, start, (int) seconds, period);
  }

  /** Spreads each datapoint over its period's seconds within {@code [start, start + seconds)}. */
  static FleetSimulator.PreRoll.Recorded of(
      MetricSeries series, Instant start, int seconds, Duration period) {
    double[] c = new double[seconds];
    Arrays.fill(c, Double.NaN);
    long periodS = Math.max(1, period.toSeconds());
    for (MetricSeries.Datapoint d : series.datapoints()) {
      long from = Duration.between(start, d.at()).toSeconds();
      for (long s = Math.max(0, from); s < Math.min(seconds, from + periodS); s++) {
        c[(int) s] = d.value();
      }
    }
    List<Double> values = new ArrayList<>(seconds);
    for (double v : c) {
      values.add(v);
    }
    return new FleetSimulator.PreRoll.Recorded(
        values,
        String.format(
            Locale.ROOT,
            MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                + " Average per %d s, %s to %s, read from the endpoint",
            periodS,
            start,
            start.plusSeconds(seconds)));
  }

  /**
   * The history's Averages over {@code periodS}-second periods ending at t = 0, oldest first, as
   * the scale-in alarm reads them ("–" for a period with no sample): for the progress line.
   */
  static String periods(FleetSimulator.PreRoll.Recorded h, int periodSeconds) {
    int periodS = Math.max(1, periodSeconds);
    List<Double> c = h.concurrencyPerInstance();
    List<String> out = new ArrayList<>();
    for (int to = c.size(); to - periodS >= 0; to -= periodS) {
      double sum = 0;
      int n = 0;
      for (int s = to - periodS; s < to; s++) {
        if (!Double.isNaN(c.get(s))) {
          sum += c.get(s);
          n++;
        }
      }
      out.addFirst(n == 0 ? "–" : String.format(Locale.ROOT, "%.2f", sum / n));
    }
    return String.join(", ", out);
  }
}
