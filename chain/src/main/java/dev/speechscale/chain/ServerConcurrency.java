package dev.speechscale.chain;

import dev.speechscale.loadgen.LadderHooks;
import dev.speechscale.loadgen.LadderResult;
import dev.speechscale.loadgen.RungReport;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.Physics;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.Statistic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * ConcurrentRequestsPerModel over a measurement window from the platform: the Maximum (what target
 * tracking reads) and the Average (what the scale-in alarm reads), at the platform's finest period
 * (1 s locally, 10 s high resolution on SageMaker).
 *
 * <p>{@link #join} waits for what it reads: CloudWatch makes a datapoint readable a minute or more
 * after its period, so joining right after the ladder would find the last rungs empty. It polls
 * until a datapoint later than the last window is published (everything before it then is) and
 * every rung's window has its datapoints, bounded by the platform's publication delay plus a few
 * periods, and says why when it gives up.
 */
final class ServerConcurrency implements LadderHooks.ServerConcurrencySource {
  /** Periods past the last window's end (plus the delay) the join waits before it gives up. */
  static final int PERIODS_OF_GRACE = 5;

  private final RetryingPlatform platform;
  private final String endpoint;
  private final Duration period;

  ServerConcurrency(RetryingPlatform platform, String endpoint) {
    this.platform = platform;
    this.endpoint = endpoint;
    this.period = platform.finestMetricPeriod();
  }

  /**
   * What the join did.
   *
   * @param result the ladder with the server's concurrency on every rung that has it
   * @param outcome in words: complete after how long, or why it gave up (recorded in the artifact's
   *     provenance)
   * @param complete whether every rung's window had its datapoints
   */
  record Join(LadderResult result, String outcome, boolean complete) {}

  /**
   * Joins every rung of {@code ladder} with the server's concurrency, polling until the windows are
   * published or the bound passes.
   */
  Join join(LadderResult ladder) {
    List<RungReport> reports = ladder.reports();
    if (reports.isEmpty()) {
      return new Join(ladder, "no rung to join", true);
    }
    Instant lastEnd =
        reports.stream().map(RungReport::windowEnd).max(Comparator.naturalOrder()).get();
    Physics physics = platform.physics(endpoint);
    Duration poll = max(period, physics.minPollInterval());
    Instant deadline = deadline(lastEnd, physics, period, poll);
    // the clock bounds the wait; the poll count bounds it too, should the clock not advance
    long maxPolls =
        2
            + Math.max(
                0,
                Duration.between(platform.clock().instant(), deadline).toNanos() / poll.toNanos());
    int polls = 0;
    while (true) {
      polls++;
      boolean published = publishedPast(lastEnd);
      boolean last = !platform.clock().instant().isBefore(deadline) || polls >= maxPolls;
      // one cheap query a poll while the windows are unpublished; the rungs only once they are
      LadderResult joined = published || last ? ladder.withServerConcurrency(this) : ladder;
      List<Integer> missing = missing(joined);
      Instant now = platform.clock().instant();
      if (published && missing.isEmpty()) {
        return new Join(
            joined,
            String.format(
                Locale.ROOT,
                "complete: every rung's window published, %.1f s after the ladder (%d polls;"
                    + " publication delay %s)",
                Duration.between(lastEnd, now).toMillis() / 1000.0,
                polls,
                physics.metricPublicationDelay()),
            true);
      }
      if (last) {
        String why =
            String.format(
                Locale.ROOT,
                "gave up %.1f s after the ladder (bound: the platform's publication delay %s + %d"
                    + " periods of %s + 2 polls of %s): %s%s",
                Duration.between(lastEnd, now).toMillis() / 1000.0,
                physics.metricPublicationDelay(),
                PERIODS_OF_GRACE,
                period,
                poll,
                missing.isEmpty()
                    ? "every rung has datapoints"
                    : "no datapoints for the rungs at concurrency " + missing,
                published
                    ? ""
                    : "; nothing after the last window was published, so the last windows may be"
                        + " partial");
        return new Join(joined, why, false);
      }
      platform.pause(poll);
    }
  }

  /** The last moment the join waits: the last window's end + delay + grace periods + two polls. */
  static Instant deadline(Instant lastEnd, Physics physics, Duration period, Duration poll) {
    return lastEnd
        .plus(physics.metricPublicationDelay())
        .plus(period.multipliedBy(PERIODS_OF_GRACE))
        .plus(poll.multipliedBy(2));
  }

  /** Whether a datapoint of a period after the one holding {@code end} is readable. */
  private boolean publishedPast(Instant end) {
    long periodMs = period.toMillis();
    Instant nextPeriod =
        Instant.ofEpochMilli(Math.floorDiv(end.toEpochMilli(), periodMs) * periodMs + periodMs);
    MetricSeries after =
        platform.metric(
            endpoint,
            new MetricQuery(
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                Statistic.MAXIMUM,
                period,
                nextPeriod,
                nextPeriod.plus(period.multipliedBy(PERIODS_OF_GRACE * 4L))));
    return !after.datapoints().isEmpty();
  }

  private static List<Integer> missing(LadderResult joined) {
    List<Integer> out = new ArrayList<>();
    for (RungReport r : joined.reports()) {
      if (r.server() == null) {
        out.add(r.concurrency());
      }
    }
    return out;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  @Override
  public Optional<LadderHooks.ServerConcurrency> over(Instant start, Instant end) {
    // one call where the platform batches queries (GetMetricData), two where it does not
    List<MetricSeries> both =
        platform.metrics(
            endpoint,
            List.of(query(Statistic.MAXIMUM, start, end), query(Statistic.AVERAGE, start, end)));
    MetricSeries max = both.get(0);
    MetricSeries avg = both.get(1);
    if (max.datapoints().isEmpty() || avg.datapoints().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new LadderHooks.ServerConcurrency(max.max().orElseThrow(), avg.mean().orElseThrow()));
  }

  private MetricQuery query(Statistic statistic, Instant start, Instant end) {
    return new MetricQuery(
        MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, statistic, period, start, end);
  }
}
