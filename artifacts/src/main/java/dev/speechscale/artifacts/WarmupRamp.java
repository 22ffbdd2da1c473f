package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.simulator.ColdStart;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How the instance qmax measured served its warm-up (additive in the qmax artifact as {@code
 * warmup_ramp}): the service time (response time less the server's queue wait) of the warm-up's
 * requests in the order they ended, in doubling buckets of request indices, against a reference:
 * the warm instance's service time. When the deploy has just started the instance (the quickstart,
 * a fresh endpoint) the first buckets are its JIT-cold start, which the simulator gives every
 * instance a scale-out starts ({@link #coldStart}); a warm instance's buckets sit at the reference
 * and give none.
 *
 * <p>The reference is the mean service time of the warm-up's last half ({@link #of}) unless the
 * ladder measured the warm instance at the warm-up's own N afterwards ({@link
 * #withLadderReference}): an instance that slowed during its warm-up made the last half slower than
 * its warm buckets (measurements/simulator-calibration.md, "The warm-up ramp's reference").
 *
 * @param concurrency the warm-up's closed-loop N
 * @param requests the warm-up's successful requests
 * @param referenceServiceMs the warm instance's mean service time: the ladder's rung at {@code
 *     concurrency} or the warm-up's last half ({@code reference_source} says which)
 * @param buckets the doubling buckets, first request first
 * @param referenceSource which reference: {@link #LAST_HALF} or {@code "ladder N=<n> rung"};
 *     additive, {@code null} in older artifacts (whose reference is the last half)
 * @param hostCpuMs the in-service host's mean probe time over the warm-up (additive; {@code null}
 *     where nothing probes the host and in older artifacts)
 * @param referenceHostCpuMs the reference rung's {@code host_cpu_ms} (additive; {@code null} for
 *     the last-half reference, where nothing probes the host, and in older artifacts). With both,
 *     {@link #coldStart} takes each bucket as it would have measured on the reference's host: a
 *     warm-up on a slow core is not taken for a colder instance
 */
public record WarmupRamp(
    int concurrency,
    int requests,
    double referenceServiceMs,
    List<Bucket> buckets,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String referenceSource,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double hostCpuMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double referenceHostCpuMs) {

  /** The reference source of a ramp measured against the mean of the warm-up's last half. */
  public static final String LAST_HALF = "warm-up's last half";

  public WarmupRamp {
    buckets = List.copyOf(buckets);
  }

  /** A ramp whose reference source is not recorded (as in older artifacts: the last half). */
  public WarmupRamp(
      int concurrency, int requests, double referenceServiceMs, List<Bucket> buckets) {
    this(concurrency, requests, referenceServiceMs, buckets, null, null, null);
  }

  /** A ramp with its reference's source and no host speeds. */
  public WarmupRamp(
      int concurrency,
      int requests,
      double referenceServiceMs,
      List<Bucket> buckets,
      @Nullable String referenceSource) {
    this(concurrency, requests, referenceServiceMs, buckets, referenceSource, null, null);
  }

  /** This ramp with its host's mean probe time over the warm-up ({@code null}: not probed). */
  public WarmupRamp withHostCpuMs(@Nullable Double cpuMs) {
    return new WarmupRamp(
        concurrency,
        requests,
        referenceServiceMs,
        buckets,
        referenceSource,
        cpuMs,
        referenceHostCpuMs);
  }

  /**
   * One bucket of request indices.
   *
   * @param untilRequest the first request index past it (it starts at the one before's)
   * @param serviceMsMean its requests' mean service time
   */
  public record Bucket(int untilRequest, double serviceMsMean) {}

  /**
   * The ramp of a warm-up's service times (seconds, in the order the requests ended) against the
   * mean of its last half.
   */
  public static WarmupRamp of(int concurrency, double[] serviceSeconds) {
    ColdStart.Buckets b = ColdStart.Buckets.of(serviceSeconds);
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0; i < b.untilRequest().size(); i++) {
      buckets.add(new Bucket(b.untilRequest().get(i), b.meanS().get(i) * 1000));
    }
    return new WarmupRamp(
        concurrency, serviceSeconds.length, b.referenceS() * 1000, buckets, LAST_HALF);
  }

  /** The reference source of a ramp measured against the ladder's rung at N. */
  public static String ladderRung(int concurrency) {
    return "ladder N=" + concurrency + " rung";
  }

  /**
   * This ramp against the warm instance's service time as the ladder measured it: the mean service
   * time (response time less queue wait, as the warm-up's requests are taken) of the first settled
   * rung at {@link #concurrency} (usable, and stable when it was held for agreeing windows) that
   * recorded one; when no rung at that N settled (on this shared machine a host that changes speed
   * mid-rung leaves rungs unstable: measurements/simulator-calibration.md, "The host's speed"), the
   * settled rung nearest to it, the lower N on a tie (a serial engine's service time is the same at
   * every N; a parallel engine's grows with N, so the nearest rung is the least wrong). Without any
   * settled rung the ramp keeps its reference and says it is the warm-up's last half.
   *
   * @param steps the ladder's steps, in the order they were measured (all after the warm-up)
   */
  public WarmupRamp withLadderReference(List<QmaxStep> steps) {
    QmaxStep nearest = null;
    Double nearestMs = null;
    for (QmaxStep step : steps) {
      Double rungMs = settledServiceMeanMs(step);
      if (rungMs == null) {
        continue;
      }
      if (step.concurrency() == concurrency) {
        return new WarmupRamp(
            concurrency,
            requests,
            rungMs,
            buckets,
            ladderRung(concurrency),
            hostCpuMs,
            step.hostCpuMs());
      }
      if (nearest == null || closer(step.concurrency(), nearest.concurrency())) {
        nearest = step;
        nearestMs = rungMs;
      }
    }
    if (nearest != null && nearestMs != null) {
      return new WarmupRamp(
          concurrency,
          requests,
          nearestMs,
          buckets,
          ladderRung(nearest.concurrency()),
          hostCpuMs,
          nearest.hostCpuMs());
    }
    return new WarmupRamp(
        concurrency, requests, referenceServiceMs, buckets, LAST_HALF, hostCpuMs, null);
  }

  /** Whether rung {@code n} is nearer the warm-up's N than {@code than}, the lower on a tie. */
  private boolean closer(int n, int than) {
    int d = Math.abs(n - concurrency);
    int e = Math.abs(than - concurrency);
    return d < e || (d == e && n < than);
  }

  private static @Nullable Double settledServiceMeanMs(QmaxStep step) {
    RungStability held = step.stability();
    StepBreakdown b = step.breakdown();
    if (!step.isUsable() || (held != null && !held.stable()) || b == null) {
      return null;
    }
    Double ms = b.serviceMeanMs();
    return ms != null && ms > 0 && Double.isFinite(ms) ? ms : null;
  }

  /**
   * The cold start this ramp gives a new instance (none when the instance was warm): each bucket
   * against the reference, the bucket first brought to the reference rung's host speed when both
   * were probed.
   */
  public ColdStart coldStart(String source) {
    double host =
        hostCpuMs != null && referenceHostCpuMs != null && hostCpuMs > 0 && referenceHostCpuMs > 0
            ? referenceHostCpuMs / hostCpuMs
            : 1;
    List<Integer> until = new ArrayList<>();
    List<Double> means = new ArrayList<>();
    for (Bucket b : buckets) {
      until.add(b.untilRequest());
      means.add(b.serviceMsMean() * host / 1000);
    }
    return ColdStart.fromBuckets(
        new ColdStart.Buckets(until, means, referenceServiceMs / 1000),
        host == 1
            ? source
            : String.format(
                java.util.Locale.ROOT,
                "%s, its buckets x%.3f to the reference rung's host speed",
                source,
                host));
  }
}
