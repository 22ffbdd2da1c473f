package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.capacity.Rung;
import java.util.Locale;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * One rung of a qmax ladder as recorded. Boxed fields are {@code null} when not measured; {@code
 * meets_slo} is derived and recomputed on read.
 *
 * <p>The record stays flat because its components are the step's JSON fields, in order (schema
 * version 1). Build one with {@link #of} from its sections ({@link Position}, {@link Counts},
 * {@link Throughput}, {@link ClientLatency}, {@link Verdict}) and add what was measured beyond them
 * with the {@code with...} methods ({@link #withServerConcurrency}, {@link #withHistograms}, {@link
 * #withTtfabDriftMs}, {@link #withBreakdown}, {@link #withStability}, {@link #withHostCpuMs},
 * {@link #withMeetsSlo}); the canonical constructor is the JSON reader's. It runs past 300 lines
 * because the sections sit beside the wire fields they fill, and the factory and the copy each name
 * every field.
 *
 * @param runIndex which pass of the ladder
 * @param stepIndex position within the run
 * @param concurrency nominal concurrency N (workers, each with one request outstanding)
 * @param completed requests that ended inside the window
 * @param ok successful completions
 * @param rejected 503 rejections
 * @param achievedRps ok completions per second over the window
 * @param concurrencyMean client mean in-flight over the window
 * @param ttfabP50Ms p50 time to first audio byte (successful requests, linear interpolation)
 * @param ttfabP95Ms p95 TTFAB, {@code null} when nothing completed
 * @param ttfabP99Ms p99 TTFAB
 * @param latencyMeanMs mean full-response latency
 * @param latencyP95Ms p95 full-response latency
 * @param serverConcurrencyPeak ConcurrentRequestsPerModel Maximum over the window
 * @param serverConcurrencyMean ConcurrentRequestsPerModel Average over the window
 * @param usable whether the step is trusted
 * @param unusableReason why not
 * @param meetsSlo usable and p95 TTFAB within the SLO (derived; {@code null} until derived)
 * @param ttfabHistogram TTFAB of successful requests, microseconds, base64 compressed HdrHistogram
 * @param latencyHistogram full-response latency, microseconds, same encoding (extension)
 * @param chars characters synthesised by ok requests (extension)
 * @param ttfabDriftMs change of TTFAB across the window (extension; settledness evidence)
 * @param breakdown the server's queue wait and engine first chunk, and audio per request (additive;
 *     {@code null} in older artifacts)
 * @param stability the consecutive windows the rung was measured in until they agreed (additive;
 *     {@code null} in older artifacts and when one window was asked for)
 * @param hostCpuMs how fast the instance's host ran while the rung was measured: the mean of the
 *     platform's host probe over the rung, ms of CPU per probe unit, larger is slower (additive;
 *     {@code null} in older artifacts and where nothing probes the host; {@link HostSpeedLog})
 */
public record QmaxStep(
    Integer runIndex,
    Integer stepIndex,
    int concurrency,
    Long completed,
    Long ok,
    Long rejected,
    Double achievedRps,
    Double concurrencyMean,
    @Nullable Double ttfabP50Ms,
    @Nullable Double ttfabP95Ms,
    @Nullable Double ttfabP99Ms,
    @Nullable Double latencyMeanMs,
    @Nullable Double latencyP95Ms,
    @Nullable Double serverConcurrencyPeak,
    @Nullable Double serverConcurrencyMean,
    Boolean usable,
    @Nullable String unusableReason,
    @Nullable Boolean meetsSlo,
    @Nullable String ttfabHistogram,
    @Nullable String latencyHistogram,
    @Nullable Long chars,
    @Nullable Double ttfabDriftMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable StepBreakdown breakdown,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable RungStability stability,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double hostCpuMs) {

  /**
   * Where the step sits in the ladder.
   *
   * @param runIndex which pass of the ladder (0-based)
   * @param stepIndex position within the run (0-based)
   * @param concurrency nominal concurrency N (the planner, through {@link #toRung}, refuses one
   *     below 1; a hand-written ladder may hold one, to test that refusal)
   */
  public record Position(int runIndex, int stepIndex, int concurrency) {
    public Position {
      if (runIndex < 0 || stepIndex < 0 || concurrency < 0) {
        throw new IllegalArgumentException(
            "step position (run "
                + runIndex
                + ", step "
                + stepIndex
                + ", N "
                + concurrency
                + ") must not be negative; count runs and steps from 0");
      }
    }
  }

  /**
   * What ended inside the measurement window.
   *
   * @param completed requests that ended inside the window, any outcome
   * @param ok successful completions among them
   * @param rejected rejections among them
   * @param chars characters synthesised by the ok requests, or {@code null} when not counted (as in
   *     a hand-written ladder)
   */
  public record Counts(long completed, long ok, long rejected, @Nullable Long chars) {
    public Counts {
      if (ok < 0 || rejected < 0 || (chars != null && chars < 0) || ok + rejected > completed) {
        throw new IllegalArgumentException(
            "step counts (completed "
                + completed
                + ", ok "
                + ok
                + ", rejected "
                + rejected
                + ", chars "
                + chars
                + ") must not be negative, and ok and rejected are parts of completed");
      }
    }

    /** Counts without the characters synthesised (they were not counted). */
    public static Counts of(long completed, long ok, long rejected) {
      return new Counts(completed, ok, rejected, null);
    }

    /** Counts with the characters the ok requests synthesised. */
    public static Counts of(long completed, long ok, long rejected, long chars) {
      return new Counts(completed, ok, rejected, chars);
    }
  }

  /**
   * How fast the window went, as the client saw it.
   *
   * @param achievedRps ok completions per second over the window
   * @param concurrencyMean the client's mean in-flight requests over the window
   */
  public record Throughput(double achievedRps, double concurrencyMean) {
    public Throughput {
      if (!(achievedRps >= 0) || !(concurrencyMean >= 0)) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "step throughput (%s rps, mean in-flight %s) must be finite and not negative",
                achievedRps,
                concurrencyMean));
      }
    }
  }

  /**
   * The client's view of the successful requests' latency: all measured, or all {@code null} when
   * nothing succeeded ({@link #NONE}).
   *
   * @param ttfabP50Ms p50 time to first audio byte (linear interpolation)
   * @param ttfabP95Ms p95 TTFAB
   * @param ttfabP99Ms p99 TTFAB
   * @param latencyMeanMs mean full-response latency
   * @param latencyP95Ms p95 full-response latency
   */
  public record ClientLatency(
      @Nullable Double ttfabP50Ms,
      @Nullable Double ttfabP95Ms,
      @Nullable Double ttfabP99Ms,
      @Nullable Double latencyMeanMs,
      @Nullable Double latencyP95Ms) {

    /** Nothing succeeded, so nothing was measured. */
    public static final ClientLatency NONE = new ClientLatency(null, null, null, null, null);

    public ClientLatency {
      long absent =
          Stream.of(ttfabP50Ms, ttfabP95Ms, ttfabP99Ms, latencyMeanMs, latencyP95Ms)
              .filter(v -> v == null)
              .count();
      if (absent != 0 && absent != 5) {
        throw new IllegalArgumentException(
            "step client latency (TTFAB p50 "
                + ttfabP50Ms
                + ", p95 "
                + ttfabP95Ms
                + ", p99 "
                + ttfabP99Ms
                + ", latency mean "
                + latencyMeanMs
                + ", p95 "
                + latencyP95Ms
                + " ms) is all measured or all absent; use ClientLatency.NONE when nothing"
                + " succeeded");
      }
    }
  }

  /**
   * The deployed metric (ConcurrentRequestsPerModel) over the window, in server units.
   *
   * @param peak its Maximum
   * @param mean its Average
   */
  public record ServerConcurrency(double peak, double mean) {}

  /**
   * Whether the step is trusted.
   *
   * @param usable whether it is
   * @param unusableReason why not; {@code null} exactly when usable
   */
  public record Verdict(boolean usable, @Nullable String unusableReason) {

    /** A trusted step. */
    public static final Verdict USABLE = new Verdict(true, null);

    public Verdict {
      if (usable != (unusableReason == null)) {
        throw new IllegalArgumentException(
            "step verdict (usable "
                + usable
                + ", reason "
                + unusableReason
                + ") must give a reason exactly when the step is unusable");
      }
    }

    /** An untrusted step, and why. */
    public static Verdict unusable(String reason) {
      return new Verdict(false, reason);
    }
  }

  /**
   * The successful requests' whole distributions, microseconds, each base64 of the compressed
   * HdrHistogram ({@link Histograms}).
   *
   * @param ttfabUs TTFAB
   * @param latencyUs full-response latency
   */
  public record LatencyHistograms(String ttfabUs, String latencyUs) {

    /** The encoded pair of two recording histograms in microseconds. */
    public static LatencyHistograms of(Histogram ttfabUs, Histogram latencyUs) {
      return new LatencyHistograms(Histograms.encode(ttfabUs), Histograms.encode(latencyUs));
    }
  }

  /**
   * A step from its sections; nothing beyond them measured (no server concurrency, histograms,
   * drift, breakdown or stability) and {@code meets_slo} not yet derived ({@link #withMeetsSlo};
   * every reader derives it).
   */
  public static QmaxStep of(
      Position position,
      Counts counts,
      Throughput throughput,
      ClientLatency latency,
      Verdict verdict) {
    return new QmaxStep(
        position.runIndex(),
        position.stepIndex(),
        position.concurrency(),
        counts.completed(),
        counts.ok(),
        counts.rejected(),
        throughput.achievedRps(),
        throughput.concurrencyMean(),
        latency.ttfabP50Ms(),
        latency.ttfabP95Ms(),
        latency.ttfabP99Ms(),
        latency.latencyMeanMs(),
        latency.latencyP95Ms(),
        null,
        null,
        verdict.usable(),
        verdict.unusableReason(),
        null,
        null,
        null,
        counts.chars(),
        null,
        null,
        null,
        null);
  }

  /** This step with the server's concurrency over its window; {@code null}: not watched. */
  public QmaxStep withServerConcurrency(@Nullable ServerConcurrency server) {
    return copy(e -> {
      e.serverPeak = server == null ? null : server.peak();
      e.serverMean = server == null ? null : server.mean();
    });
  }

  /** This step with its latency histograms; {@code null}: none recorded. */
  public QmaxStep withHistograms(@Nullable LatencyHistograms histograms) {
    return copy(e -> {
      e.ttfabHistogramUs = histograms == null ? null : histograms.ttfabUs();
      e.latencyHistogramUs = histograms == null ? null : histograms.latencyUs();
    });
  }

  /** This step with the change of TTFAB across its window; {@code null}: too few requests. */
  public QmaxStep withTtfabDriftMs(@Nullable Double driftMs) {
    return copy(e -> e.driftMs = driftMs);
  }

  /** This step with the server's breakdown; {@code null}: the server said nothing. */
  public QmaxStep withBreakdown(@Nullable StepBreakdown stepBreakdown) {
    return copy(e -> e.breakdown = stepBreakdown);
  }

  /** This step with the windows it was held for; {@code null}: one window was measured. */
  public QmaxStep withStability(@Nullable RungStability rungStability) {
    return copy(e -> e.stability = rungStability);
  }

  /** This step with its host's mean probe time over the rung; {@code null}: not probed. */
  public QmaxStep withHostCpuMs(@Nullable Double cpuMs) {
    if (cpuMs != null && (!(cpuMs > 0) || Double.isInfinite(cpuMs))) {
      throw new IllegalArgumentException(
          "step host_cpu_ms (" + cpuMs + ") must be finite and positive, or absent");
    }
    return copy(e -> e.hostCpuMs = cpuMs);
  }

  /**
   * This step as it would have measured on a host running at {@code referenceCpuMs} instead of its
   * own {@link #hostCpuMs}: every time (TTFAB and latency figures and histograms) times {@code
   * referenceCpuMs / hostCpuMs}, the throughput divided by it, {@code host_cpu_ms} the reference;
   * counts, concurrency and the server's breakdown kept. Unchanged without a host time.
   */
  public QmaxStep atHostSpeed(double referenceCpuMs) {
    if (hostCpuMs == null || hostCpuMs == referenceCpuMs) {
      return this;
    }
    if (!(referenceCpuMs > 0) || Double.isInfinite(referenceCpuMs)) {
      throw new IllegalArgumentException(
          "host speed reference (" + referenceCpuMs + " ms) must be finite and positive");
    }
    double c = referenceCpuMs / hostCpuMs;
    return copy(e -> {
      e.achievedRps = achievedRps / c;
      e.ttfabP50Ms = times(ttfabP50Ms, c);
      e.ttfabP95Ms = times(ttfabP95Ms, c);
      e.ttfabP99Ms = times(ttfabP99Ms, c);
      e.latencyMeanMs = times(latencyMeanMs, c);
      e.latencyP95Ms = times(latencyP95Ms, c);
      e.ttfabHistogramUs = Histograms.scaled(ttfabHistogram, c);
      e.latencyHistogramUs = Histograms.scaled(latencyHistogram, c);
      e.driftMs = times(ttfabDriftMs, c);
      e.hostCpuMs = referenceCpuMs;
    });
  }

  private static @Nullable Double times(@Nullable Double v, double c) {
    return v == null ? null : v * c;
  }

  /**
   * This step with {@code meets_slo} derived against {@code sloMs}: what every reader does ({@link
   * QmaxArtifact#withDerived()}).
   */
  public QmaxStep withMeetsSlo(double sloMs) {
    boolean meets = toRung().meetsSlo(sloMs);
    return copy(e -> e.meets = meets);
  }

  /** The fields a {@code with…} or {@link #atHostSpeed} changes; the counts are kept. */
  private static final class Extras {
    Double achievedRps;
    @Nullable Double ttfabP50Ms;
    @Nullable Double ttfabP95Ms;
    @Nullable Double ttfabP99Ms;
    @Nullable Double latencyMeanMs;
    @Nullable Double latencyP95Ms;
    @Nullable Double serverPeak;
    @Nullable Double serverMean;
    @Nullable Boolean meets;
    @Nullable String ttfabHistogramUs;
    @Nullable String latencyHistogramUs;
    @Nullable Double driftMs;
    @Nullable StepBreakdown breakdown;
    @Nullable RungStability stability;
    @Nullable Double hostCpuMs;

    Extras(Double achievedRps) {
      this.achievedRps = achievedRps;
    }
  }

  /**
   * This step with {@code change} applied to the fields {@link Extras} holds, each of the others
   * kept; a run index or usable flag an older file left out is filled in ({@link #run()}, {@link
   * #isUsable()}), as every reader fills it, so a step read through {@link ArtifactCodec} is
   * unchanged by it.
   */
  private QmaxStep copy(java.util.function.Consumer<Extras> change) {
    Extras e = new Extras(achievedRps);
    e.ttfabP50Ms = ttfabP50Ms;
    e.ttfabP95Ms = ttfabP95Ms;
    e.ttfabP99Ms = ttfabP99Ms;
    e.latencyMeanMs = latencyMeanMs;
    e.latencyP95Ms = latencyP95Ms;
    e.serverPeak = serverConcurrencyPeak;
    e.serverMean = serverConcurrencyMean;
    e.meets = meetsSlo;
    e.ttfabHistogramUs = ttfabHistogram;
    e.latencyHistogramUs = latencyHistogram;
    e.driftMs = ttfabDriftMs;
    e.breakdown = breakdown;
    e.stability = stability;
    e.hostCpuMs = hostCpuMs;
    change.accept(e);
    return new QmaxStep(
        run(),
        stepIndex,
        concurrency,
        completed,
        ok,
        rejected,
        e.achievedRps,
        concurrencyMean,
        e.ttfabP50Ms,
        e.ttfabP95Ms,
        e.ttfabP99Ms,
        e.latencyMeanMs,
        e.latencyP95Ms,
        e.serverPeak,
        e.serverMean,
        isUsable(),
        unusableReason,
        e.meets,
        e.ttfabHistogramUs,
        e.latencyHistogramUs,
        chars,
        e.driftMs,
        e.breakdown,
        e.stability,
        e.hostCpuMs);
  }

  /** Absent means usable unless a reason says otherwise. */
  public boolean isUsable() {
    return usable != null ? usable : unusableReason == null;
  }

  public int run() {
    return runIndex == null ? 0 : runIndex;
  }

  /** The planner's view of this step. */
  public Rung toRung() {
    return new Rung(
        run(),
        stepIndex == null ? 0 : stepIndex,
        concurrency,
        ok == null ? 0 : ok,
        rejected == null ? 0 : rejected,
        achievedRps,
        concurrencyMean,
        ttfabP95Ms == null ? Double.NaN : ttfabP95Ms,
        latencyMeanMs,
        latencyP95Ms,
        serverConcurrencyPeak,
        serverConcurrencyMean,
        isUsable(),
        unusableReason,
        chars);
  }
}
