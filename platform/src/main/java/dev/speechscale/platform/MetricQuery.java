package dev.speechscale.platform;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A request for one metric's datapoints over a time range.
 *
 * @param metric which metric
 * @param statistic which statistic per period
 * @param period seconds per datapoint (10 s or 60 s for ConcurrentRequestsPerModel)
 * @param start inclusive
 * @param end exclusive
 */
public record MetricQuery(
    Metric metric, Statistic statistic, Duration period, Instant start, Instant end) {
  public MetricQuery {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(statistic, "statistic");
    if (period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period (" + period + ") must be positive");
    }
    if (!start.isBefore(end)) {
      throw new IllegalArgumentException("start (" + start + ") must be before end (" + end + ")");
    }
  }

  /** The metrics the chain reads, by their CloudWatch names. */
  public enum Metric {
    CONCURRENT_REQUESTS_PER_MODEL("ConcurrentRequestsPerModel"),
    INVOCATIONS("Invocations"),
    INVOCATION_4XX_ERRORS("Invocation4XXErrors"),
    INVOCATION_5XX_ERRORS("Invocation5XXErrors"),
    FIRST_CHUNK_LATENCY("FirstChunkLatency");

    private final String cloudWatchName;

    Metric(String cloudWatchName) {
      this.cloudWatchName = cloudWatchName;
    }

    public String cloudWatchName() {
      return cloudWatchName;
    }
  }
}
