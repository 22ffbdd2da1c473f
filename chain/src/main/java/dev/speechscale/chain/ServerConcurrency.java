package dev.speechscale.chain;

import dev.speechscale.loadgen.LadderHooks;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Statistic;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * ConcurrentRequestsPerModel over a measurement window from the platform: the Maximum (what target
 * tracking reads) and the Average (what the scale-in alarm reads), at the platform's finest period
 * (1 s locally, 10 s high resolution on SageMaker).
 */
final class ServerConcurrency implements LadderHooks.ServerConcurrencySource {
  private final Platform platform;
  private final String endpoint;
  private final Duration period;

  ServerConcurrency(Platform platform, String endpoint) {
    this.platform = platform;
    this.endpoint = endpoint;
    this.period = platform.finestMetricPeriod();
  }

  @Override
  public Optional<LadderHooks.ServerConcurrency> over(Instant start, Instant end) {
    MetricSeries max = query(Statistic.MAXIMUM, start, end);
    MetricSeries avg = query(Statistic.AVERAGE, start, end);
    if (max.datapoints().isEmpty() || avg.datapoints().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new LadderHooks.ServerConcurrency(max.max().orElseThrow(), avg.mean().orElseThrow()));
  }

  private MetricSeries query(Statistic statistic, Instant start, Instant end) {
    return platform.metric(
        endpoint,
        new MetricQuery(
            MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, statistic, period, start, end));
  }
}
