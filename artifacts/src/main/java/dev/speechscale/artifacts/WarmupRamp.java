package dev.speechscale.artifacts;

import dev.speechscale.simulator.ColdStart;
import java.util.ArrayList;
import java.util.List;

/**
 * How the instance qmax measured served its warm-up (additive in the qmax artifact as {@code
 * warmup_ramp}): the service time (response time less the server's queue wait) of the warm-up's
 * requests in the order they ended, in doubling buckets of request indices, and the mean of the
 * last half. When the deploy has just started the instance (the quickstart, a fresh endpoint) the
 * first buckets are its JIT-cold start, which the simulator gives every instance a scale-out starts
 * ({@link #coldStart}); a warm instance's buckets sit at the reference and give none.
 *
 * @param concurrency the warm-up's closed-loop N
 * @param requests the warm-up's successful requests
 * @param referenceServiceMs the mean service time of the last half of them
 * @param buckets the doubling buckets, first request first
 */
public record WarmupRamp(
    int concurrency, int requests, double referenceServiceMs, List<Bucket> buckets) {

  public WarmupRamp {
    buckets = List.copyOf(buckets);
  }

  /**
   * One bucket of request indices.
   *
   * @param untilRequest the first request index past it (it starts at the one before's)
   * @param serviceMsMean its requests' mean service time
   */
  public record Bucket(int untilRequest, double serviceMsMean) {}

  /** The ramp of a warm-up's service times (seconds, in the order the requests ended). */
  public static WarmupRamp of(int concurrency, double[] serviceSeconds) {
    ColdStart.Buckets b = ColdStart.Buckets.of(serviceSeconds);
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0; i < b.untilRequest().size(); i++) {
      buckets.add(new Bucket(b.untilRequest().get(i), b.meanS().get(i) * 1000));
    }
    return new WarmupRamp(concurrency, serviceSeconds.length, b.referenceS() * 1000, buckets);
  }

  /** The cold start this ramp gives a new instance (none when the instance was warm). */
  public ColdStart coldStart(String source) {
    List<Integer> until = new ArrayList<>();
    List<Double> means = new ArrayList<>();
    for (Bucket b : buckets) {
      until.add(b.untilRequest());
      means.add(b.serviceMsMean() / 1000);
    }
    return ColdStart.fromBuckets(
        new ColdStart.Buckets(until, means, referenceServiceMs / 1000), source);
  }
}
