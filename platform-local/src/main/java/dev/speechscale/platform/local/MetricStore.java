package dev.speechscale.platform.local;

import dev.speechscale.capacity.Percentiles;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Statistic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The local platform's CloudWatch: one sample per second, aggregated into periods aligned to the
 * epoch (as CloudWatch aligns them) on query. Keeps the last two hours.
 *
 * <p>ConcurrentRequestsPerModel is sampled every second as in-flight requests (queued + executing +
 * still streaming) per in-service instance; a second with no in-service instance has no sample, and
 * with {@code local.aws_physics.concurrency_when_idle: missing} neither has an idle second (nothing
 * in flight, nothing invoked): SageMaker documents its invocation metrics as sent "from calls to
 * InvokeEndpoint" (SageMaker Developer Guide, "Amazon SageMaker AI metrics in Amazon CloudWatch",
 * https://docs.aws.amazon.com/sagemaker/latest/dg/monitoring-cloudwatch.html) and says nothing of
 * an idle variant's concurrency, so the default stays a sample of 0. Invocations and errors are
 * counts per second; first-chunk latency is recorded per request in microseconds, as SageMaker
 * reports latencies.
 *
 * <p>With a publication delay ({@code local.aws_physics.metric_delay_s}) a sample becomes readable
 * only that long after it was taken, as CloudWatch publishes late: {@link #query} answers what is
 * published at the store's clock's now.
 */
final class MetricStore {
  private static final Duration RETENTION = Duration.ofHours(2);

  /**
   * One second of the endpoint.
   *
   * @param at the second's start
   * @param concurrencyPerInstance in-flight / in-service instances, or NaN with none in service
   * @param invocations requests routed in the second
   * @param errors4xx requests answered 4xx
   * @param errors5xx requests answered 5xx
   * @param firstChunkMicros first-chunk latencies of requests whose first chunk came in the second
   */
  record Sample(
      Instant at,
      double concurrencyPerInstance,
      long invocations,
      long errors4xx,
      long errors5xx,
      double[] firstChunkMicros) {}

  private final Deque<Sample> samples = new ArrayDeque<>();
  private final Duration publicationDelay;
  private final Clock clock;

  /** A store whose samples are readable at once. */
  MetricStore() {
    this(Duration.ZERO, Clock.systemUTC());
  }

  /**
   * A store whose samples become readable {@code publicationDelay} after they were taken, by {@code
   * clock}.
   */
  MetricStore(Duration publicationDelay, Clock clock) {
    if (publicationDelay.isNegative()) {
      throw new IllegalArgumentException(
          "publication delay (" + publicationDelay + ") must not be negative; zero means none");
    }
    this.publicationDelay = publicationDelay;
    this.clock = clock;
  }

  /** How long after it is taken a sample becomes readable. */
  Duration publicationDelay() {
    return publicationDelay;
  }

  synchronized void record(Sample sample) {
    samples.addLast(sample);
    Instant horizon = sample.at().minus(RETENTION);
    while (!samples.isEmpty() && samples.peekFirst().at().isBefore(horizon)) {
      samples.removeFirst();
    }
  }

  /** Datapoints for the query as published now, one per period that had published samples. */
  MetricSeries query(MetricQuery q) {
    return query(
        q, publicationDelay.isZero() ? Instant.MAX : clock.instant().minus(publicationDelay));
  }

  /**
   * Datapoints for the query from the samples taken at or before {@code publishedUpTo}, one per
   * period that had such samples. The autoscaler's engine applies the delay itself (it evaluates
   * the periods that ended at least the delay ago), so it reads with {@link Instant#MAX}.
   */
  synchronized MetricSeries query(MetricQuery q, Instant publishedUpTo) {
    long periodMs = q.period().toMillis();
    Map<Long, List<Double>> byPeriod = new TreeMap<>();
    for (Sample s : samples) {
      if (s.at().isBefore(q.start())
          || !s.at().isBefore(q.end())
          || s.at().isAfter(publishedUpTo)) {
        continue;
      }
      long bucket = Math.floorDiv(s.at().toEpochMilli(), periodMs) * periodMs;
      List<Double> values = byPeriod.computeIfAbsent(bucket, k -> new ArrayList<>());
      switch (q.metric()) {
        case CONCURRENT_REQUESTS_PER_MODEL -> {
          if (!Double.isNaN(s.concurrencyPerInstance())) {
            values.add(s.concurrencyPerInstance());
          }
        }
        case INVOCATIONS -> values.add((double) s.invocations());
        case INVOCATION_4XX_ERRORS -> values.add((double) s.errors4xx());
        case INVOCATION_5XX_ERRORS -> values.add((double) s.errors5xx());
        case FIRST_CHUNK_LATENCY -> {
          for (double v : s.firstChunkMicros()) {
            values.add(v);
          }
        }
        case INVOCATIONS_PER_INSTANCE, CPU_UTILIZATION -> {
          // not recorded locally: the series stays empty (MetricStoreDatapoints says so to a
          // policy)
        }
      }
    }
    List<MetricSeries.Datapoint> points = new ArrayList<>();
    byPeriod.forEach((bucket, values) -> {
      if (!values.isEmpty()) {
        points.add(
            new MetricSeries.Datapoint(
                Instant.ofEpochMilli(bucket), aggregate(q.statistic(), values)));
      }
    });
    return new MetricSeries(q, points);
  }

  static double aggregate(Statistic statistic, List<Double> values) {
    return switch (statistic) {
      case AVERAGE -> values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      case MAXIMUM -> values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
      case MINIMUM -> values.stream().mapToDouble(Double::doubleValue).min().orElse(0);
      case SUM -> values.stream().mapToDouble(Double::doubleValue).sum();
      case SAMPLE_COUNT -> values.size();
      case P95 -> percentile(values, 0.95);
    };
  }

  /** The q-quantile by linear interpolation between closest ranks ({@link Percentiles}). */
  static double percentile(List<Double> values, double q) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return Percentiles.linearAtQuantile(sorted, q);
  }
}
