package dev.speechscale.platform.local;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import dev.speechscale.scaling.Datapoints;
import dev.speechscale.scaling.MetricStatistic;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

/**
 * The {@link MetricStore} as the scaling engine reads it: one value per aligned period, NaN where
 * the period has no sample. A datapoint is readable the store's publication delay after its period
 * ends (none by default; {@code local.aws_physics.metric_delay_s}), which the engine applies by
 * evaluating only the periods that ended at least that long ago.
 */
final class MetricStoreDatapoints implements Datapoints {
  private final MetricStore metrics;

  MetricStoreDatapoints(MetricStore metrics) {
    this.metrics = metrics;
  }

  @Override
  public double[] periods(
      Metric metric, MetricStatistic statistic, long periodMs, int count, long endMs) {
    long startMs = endMs - count * periodMs;
    MetricSeries series =
        metrics.query(
            new MetricQuery(
                local(metric),
                switch (statistic) {
                  case MAXIMUM -> Statistic.MAXIMUM;
                  case AVERAGE -> Statistic.AVERAGE;
                  case SUM -> Statistic.SUM;
                },
                Duration.ofMillis(periodMs),
                Instant.ofEpochMilli(startMs),
                Instant.ofEpochMilli(endMs)),
            Instant.MAX);
    double[] values = new double[count];
    Arrays.fill(values, Double.NaN);
    for (MetricSeries.Datapoint d : series.datapoints()) {
      int i = (int) ((d.at().toEpochMilli() - startMs) / periodMs);
      values[i] = d.value();
    }
    return values;
  }

  @Override
  public long publicationDelayMs() {
    return metrics.publicationDelay().toMillis();
  }

  /**
   * The metric itself when the local store records it for scaling: ConcurrentRequestsPerModel, or
   * InvocationsPerInstance ({@code scaling_metric: invocations_per_instance}).
   */
  private static Metric local(Metric metric) {
    if (metric != Metric.CONCURRENT_REQUESTS_PER_MODEL
        && metric != Metric.INVOCATIONS_PER_INSTANCE) {
      throw new IllegalArgumentException(
          "the local platform's metric store does not record "
              + metric.cloudWatchName()
              + " for scaling; a local scaling policy can track "
              + Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
              + " or "
              + Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName()
              + " only");
    }
    return metric;
  }
}
