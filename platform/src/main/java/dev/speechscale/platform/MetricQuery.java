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

  /**
   * The one definition of an endpoint's metrics, by their CloudWatch names: those the chain reads
   * and those a scaling policy can track (the {@code scaling} engine's {@code Datapoints}). A new
   * metric is a new constant here plus a source for it in every {@code Datapoints} implementation
   * (the local metric store, the simulator, CloudWatch).
   */
  public enum Metric {
    /**
     * In-flight requests (queued + executing + still streaming) per in-service instance, sampled
     * every second. What a SpeechScale plan tracks.
     */
    CONCURRENT_REQUESTS_PER_MODEL("ConcurrentRequestsPerModel"),
    INVOCATIONS("Invocations"),
    /**
     * Requests routed per in-service instance in a period (statistic Sum); SageMaker's predefined
     * {@code SageMakerVariantInvocationsPerInstance}, the policy a user typically copies.
     */
    INVOCATIONS_PER_INSTANCE("InvocationsPerInstance"),
    /** Busy share of an instance, 0..100 %, as a CPU-style utilisation metric. */
    CPU_UTILIZATION("CPUUtilization"),
    INVOCATION_4XX_ERRORS("Invocation4XXErrors"),
    INVOCATION_5XX_ERRORS("Invocation5XXErrors"),
    FIRST_CHUNK_LATENCY("FirstChunkLatency");

    private final String cloudWatchName;

    Metric(String cloudWatchName) {
      this.cloudWatchName = cloudWatchName;
    }

    /** The CloudWatch metric name, e.g. {@code ConcurrentRequestsPerModel}: spelled here only. */
    public String cloudWatchName() {
      return cloudWatchName;
    }
  }
}
