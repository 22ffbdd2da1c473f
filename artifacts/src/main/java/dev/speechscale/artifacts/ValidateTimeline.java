package dev.speechscale.artifacts;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@code validate --live} saw over time, one sample per interval from the start of the load
 * checks: the instances in service, the concurrency the platform reported, and the p95 TTFAB and
 * refusals of the requests that ended in the interval. Additive to the validate artifact ({@code
 * timeline}); artifacts written before it have none.
 *
 * @param startedAt when the load checks began (sample {@code t_s} counts from here)
 * @param intervalS seconds per sample
 * @param concurrencyMetric what {@code server_concurrency_max} is, in words (metric, statistic,
 *     period)
 * @param phases when each load check began
 * @param samples one per interval, in time order
 */
public record ValidateTimeline(
    Instant startedAt,
    double intervalS,
    String concurrencyMetric,
    List<Phase> phases,
    List<Sample> samples) {

  public ValidateTimeline {
    if (!(intervalS > 0)) {
      throw new ArtifactException(
          "a validate timeline's interval_s (" + intervalS + ") must be positive");
    }
    phases = List.copyOf(phases);
    samples = List.copyOf(samples);
  }

  /**
   * The start of one load check.
   *
   * @param name the check it runs ({@code live_rejections}, {@code live_surge}, ...)
   * @param atS seconds from {@code started_at}
   */
  public record Phase(String name, double atS) {}

  /**
   * One interval.
   *
   * @param tS the interval's start, seconds from {@code started_at}
   * @param instances instances in service as the platform described the endpoint during the
   *     interval (the last answer), or {@code null} when it was not asked
   * @param serverConcurrencyMax the largest datapoint of the concurrency metric in the interval, or
   *     {@code null} when the platform had published none
   * @param completed requests that ended in the interval, whatever their outcome
   * @param ttfabP95Ms p95 TTFAB (from the intended send) of the successful ones, or {@code null}
   *     when none succeeded
   * @param shed requests the endpoint refused (503 at admission, 408 as stale) in the interval
   */
  public record Sample(
      double tS,
      @Nullable Integer instances,
      @Nullable Double serverConcurrencyMax,
      long completed,
      @Nullable Double ttfabP95Ms,
      long shed) {}
}
