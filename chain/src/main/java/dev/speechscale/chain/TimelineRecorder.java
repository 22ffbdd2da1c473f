package dev.speechscale.chain;

import dev.speechscale.artifacts.ValidateTimeline;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.Statistic;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Records {@code validate --live}'s timeline ({@link ValidateTimeline}): every request the load
 * checks' drivers complete (a {@link RequestListener}: TTFAB from the intended send, refusals), the
 * instances in service from a sampler that describes the endpoint once an interval, and, at the
 * end, the platform's ConcurrentRequestsPerModel Maximum over the whole run, each put in the
 * interval it fell in.
 *
 * <p>The sampler's describe calls go through the chain's {@link RetryingPlatform}, so they share
 * its adaptive rate with the checks' own polling (one call an interval, at least the platform's
 * poll interval apart). The concurrency metric is read once, after the load: on SageMaker its last
 * minute may not be published yet, and those intervals say {@code null} rather than wait.
 */
final class TimelineRecorder implements RequestListener, AutoCloseable {
  /** Seconds per sample unless the platform's metrics are coarser. */
  static final Duration INTERVAL = Duration.ofSeconds(5);

  private final RetryingPlatform platform;
  private final String endpoint;
  private final Clock wall;
  private final Duration interval;
  private final Instant startedAt;
  private final long startNanos;
  private final Object lock = new Object();
  private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
  private final List<ValidateTimeline.Phase> phases = new ArrayList<>();
  private final CountDownLatch stop = new CountDownLatch(1);
  private @Nullable Thread sampler;

  /** One interval's requests and instance count, filled from several threads under the lock. */
  private static final class Bucket {
    long completed;
    long shed;
    final List<Double> ttfabMs = new ArrayList<>();
    @Nullable Integer instances;
  }

  TimelineRecorder(
      RetryingPlatform platform, String endpoint, Clock wall, NanoClock nanos, Duration interval) {
    this.platform = platform;
    this.endpoint = endpoint;
    this.wall = wall;
    this.interval = interval;
    this.startedAt = wall.instant();
    this.startNanos = nanos.nanoTime();
  }

  /**
   * A recorder whose interval is {@link #INTERVAL} or the platform's metric period if coarser, with
   * its sampler running until {@link #finish()} or {@link #close()}; {@code endpointPlatform} is
   * the chain's {@link RetryingPlatform} (or wrapped in one).
   */
  static TimelineRecorder start(Platform endpointPlatform, String endpoint, NanoClock clocks) {
    RetryingPlatform platform = RetryingPlatform.of(endpointPlatform, clocks.wall());
    Duration period = platform.finestMetricPeriod();
    TimelineRecorder r =
        new TimelineRecorder(
            platform,
            endpoint,
            clocks.wall(),
            clocks,
            period.compareTo(INTERVAL) > 0 ? period : INTERVAL);
    r.sample();
    Duration every = max(r.interval, platform.pollInterval(endpoint));
    r.sampler = Thread.ofPlatform().daemon().name("validate-timeline").start(() -> r.run(every));
    return r;
  }

  private void run(Duration every) {
    try {
      while (!stop.await(every.toMillis(), TimeUnit.MILLISECONDS)) {
        sample();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A load check begins now. */
  void phase(String name) {
    synchronized (lock) {
      phases.add(new ValidateTimeline.Phase(name, secondsSinceStart(wall.instant())));
    }
  }

  @Override
  public void completed(RequestEvent e) {
    long index = Math.max(0, (e.completedNanos() - startNanos) / interval.toNanos());
    synchronized (lock) {
      Bucket b = buckets.computeIfAbsent(index, k -> new Bucket());
      b.completed++;
      if (e.ok() && e.ttfabNanos() >= 0) {
        b.ttfabMs.add(e.ttfabNanos() / 1e6);
      }
      if (e.outcome() == Invocation.Outcome.REJECTED) {
        b.shed++;
      }
    }
  }

  /** Asks the platform how many instances are in service and files the answer under now. */
  void sample() {
    int inService;
    try {
      inService = platform.describe(endpoint).currentInstances();
    } catch (PlatformException e) {
      // a missed sample leaves its interval's count empty; the checks report the endpoint's errors
      return;
    }
    long index = index(wall.instant());
    synchronized (lock) {
      buckets.computeIfAbsent(index, k -> new Bucket()).instances = inService;
    }
  }

  /**
   * Stops the sampler, takes a last sample, reads the concurrency metric over the run and returns
   * the timeline, one sample per interval from the first to the last with anything in it.
   */
  ValidateTimeline finish() {
    close();
    sample();
    Instant end = wall.instant();
    Duration period = platform.finestMetricPeriod();
    String metric =
        String.format(
            Locale.ROOT,
            MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                + ", Maximum per %d s period, largest in the interval",
            period.toSeconds());
    List<MetricSeries.Datapoint> points = List.of();
    if (end.isAfter(startedAt)) {
      try {
        points =
            platform
                .metric(
                    endpoint,
                    new MetricQuery(
                        MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                        Statistic.MAXIMUM,
                        period,
                        startedAt,
                        end))
                .datapoints();
      } catch (PlatformException e) {
        metric += " (not read: " + e.getMessage() + ")";
      }
    }
    synchronized (lock) {
      TreeMap<Long, Double> concurrency = new TreeMap<>();
      for (MetricSeries.Datapoint d : points) {
        concurrency.merge(index(d.at()), d.value(), Math::max);
      }
      long last = Math.max(buckets.isEmpty() ? 0 : buckets.lastKey(), lastKey(concurrency));
      List<ValidateTimeline.Sample> samples = new ArrayList<>();
      for (long i = 0; i <= last; i++) {
        Bucket b = buckets.getOrDefault(i, new Bucket());
        samples.add(
            new ValidateTimeline.Sample(
                i * interval.toMillis() / 1000.0,
                b.instances,
                concurrency.get(i),
                b.completed,
                b.ttfabMs.isEmpty()
                    ? null
                    : Percentile.of(
                        b.ttfabMs.stream().mapToDouble(Double::doubleValue).toArray(), 95),
                b.shed));
      }
      return new ValidateTimeline(startedAt, interval.toMillis() / 1000.0, metric, phases, samples);
    }
  }

  /** Stops the sampler; idempotent. */
  @Override
  public void close() {
    stop.countDown();
    Thread t = sampler;
    if (t != null) {
      try {
        t.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private long index(Instant at) {
    return Math.max(0, Duration.between(startedAt, at).toNanos() / interval.toNanos());
  }

  private double secondsSinceStart(Instant at) {
    return Math.max(0, Duration.between(startedAt, at).toMillis() / 1000.0);
  }

  private static long lastKey(TreeMap<Long, Double> m) {
    return m.isEmpty() ? 0 : m.lastKey();
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
