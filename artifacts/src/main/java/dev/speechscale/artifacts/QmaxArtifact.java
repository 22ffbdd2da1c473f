package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.Rung;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.simulator.ColdStart;
import dev.speechscale.simulator.IdleStart;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A measured concurrency ladder: what one instance holds inside the SLO.
 *
 * <p>Derived fields ({@code q_max}, {@code q_max_per_run}, {@code q_max_bracketed}, {@code
 * refined}, {@code s_mean_s}, {@code s_p95_s}, each step's {@code meets_slo}) are recomputed from
 * {@code steps} by {@link #withDerived()}, which every reader applies.
 *
 * <p>It opens with the {@link Header} every artifact shares, unwrapped into the JSON's top level.
 * The rest stays flat because its components are the JSON's fields, in order, and the summary's
 * fields stand among the target's and the conditions' ones; it is built from sections ({@link
 * Stamp}, {@link Target}, {@link Conditions}, {@link Summary}) by {@link #of} and {@link #stated}.
 * It runs past 300 lines for the same reason as {@link PlanArtifact}: the sections sit beside the
 * wire fields they fill, and the factory and the one copy name every field.
 *
 * @param header schema version, kind and stamp
 * @param transport {@code http-stream}, {@code response-stream} or {@code bidi}
 * @param sloMs the p95 TTFAB SLO the ladder was judged against
 * @param holdS how long each rung was held
 * @param windowS the trailing window measured at each rung
 * @param frozen autoscaling was suspended and capacity pinned to 1
 * @param unboundedQueue the container's queue bound was off
 * @param loadModel how load was generated ({@code closed-loop})
 * @param platform where it ran ({@code local}, {@code aws})
 * @param rungChecks per rung: window stability, the p95's interval, CPU steal and the load
 *     generator's own CPU (additive; absent in older artifacts)
 * @param qMaxInterval the range Q_max lies in given the rungs' p95 intervals; derived from {@code
 *     steps} and {@code rung_checks} on every read
 * @param drift a reference rung re-measured late and compared with its first measurement (additive;
 *     absent in older artifacts and when the check was off)
 * @param warmupRamp how the warm-up's requests ramped: a fresh instance's cold start (additive;
 *     absent in older artifacts, without a warm-up, and when the server did not say its queue wait)
 * @param hostSpeed how fast the instance's host ran while the ladder measured it, second by second
 *     (additive; absent in older artifacts and where the platform has no probe: a SageMaker
 *     instance has its host to itself)
 * @param idleStart an open-loop rung below saturation: how much faster a request that finds the
 *     instance idle is served than one that queued (additive; absent in older artifacts and when
 *     the ladder had no throughput to take a share of)
 */
public record QmaxArtifact(
    @JsonUnwrapped Header header,
    String model,
    String endpoint,
    String transport,
    double sloMs,
    @Nullable DeployedConfig deployedConfig,
    Integer runs,
    Double holdS,
    Double windowS,
    Boolean frozen,
    @Nullable Boolean unboundedQueue,
    @Nullable Integer qMax,
    @Nullable List<Integer> qMaxPerRun,
    @Nullable Boolean qMaxBracketed,
    @Nullable Boolean refined,
    @Nullable Double sMeanS,
    @Nullable Double sP95S,
    String loadModel,
    String platform,
    List<QmaxStep> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<RungCheck> rungChecks,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable QmaxInterval qMaxInterval,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable QmaxDrift drift,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable WarmupRamp warmupRamp,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable HostSpeedLog hostSpeed,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable IdleStartRung idleStart)
    implements Artifact.Sectioned {

  /** The load model every ladder runs under. */
  static final String CLOSED_LOOP = "closed-loop";

  /**
   * The flat wire record, as JSON reads and writes it field by field; build one with {@link #of}
   * (or {@link #stated} for a hand-written ladder) from its sections.
   */
  public QmaxArtifact {
    steps = steps == null ? List.of() : List.copyOf(steps);
    qMaxPerRun = qMaxPerRun == null ? null : List.copyOf(qMaxPerRun);
    rungChecks = rungChecks == null ? null : List.copyOf(rungChecks);
  }

  /**
   * What was measured: the model, where it was reached, the SLO it was judged against and the
   * fingerprint of what ran.
   *
   * @param model the model
   * @param endpoint the endpoint measured
   * @param transport {@code http-stream}, {@code response-stream} or {@code bidi}
   * @param sloMs the p95 TTFAB SLO the ladder was judged against
   * @param deployedConfig the fingerprint, or {@code null} when none was read
   */
  public record Target(
      String model,
      String endpoint,
      String transport,
      double sloMs,
      @Nullable DeployedConfig deployedConfig) {}

  /**
   * How the ladder was run.
   *
   * @param platform where it ran ({@code local}, {@code aws})
   * @param runs how many runs were asked for (recomputed from the steps on every read)
   * @param holdS how long each rung was held
   * @param windowS the trailing window measured at each rung
   * @param unboundedQueue the container's queue bound was seen off, or {@code null} when the
   *     platform reports no bound either way
   */
  public record Conditions(
      String platform, int runs, double holdS, double windowS, @Nullable Boolean unboundedQueue) {}

  /**
   * The top-level values a reader derives from the steps, as an artifact states them (a
   * hand-written file may state them; every read recomputes them).
   *
   * @param qMax Q_max
   * @param qMaxPerRun Q_max of each run
   * @param qMaxBracketed a usable rung above Q_max breached the SLO
   * @param refined the breaching rung is Q_max + 1
   * @param sMeanS uncontended mean service time
   * @param sP95S uncontended p95 service time
   */
  public record Summary(
      @Nullable Integer qMax,
      @Nullable List<Integer> qMaxPerRun,
      @Nullable Boolean qMaxBracketed,
      @Nullable Boolean refined,
      @Nullable Double sMeanS,
      @Nullable Double sP95S) {

    /** Nothing stated: every value comes from the steps. */
    public static final Summary NONE = new Summary(null, null, null, null, null, null);

    /** Q_max and its bracketing stated, nothing else. */
    public static Summary ofQMax(@Nullable Integer qMax, boolean bracketed, boolean refined) {
      return new Summary(qMax, null, bracketed, refined, null, null);
    }
  }

  /**
   * A measured ladder, frozen at capacity 1 under closed-loop load, with every derived value
   * computed from its steps.
   */
  public static QmaxArtifact of(
      Stamp stamp, Target target, Conditions conditions, List<QmaxStep> steps) {
    return stated(stamp, target, conditions, Summary.NONE, steps).withDerived();
  }

  /**
   * A ladder as a hand-written artifact states it, frozen at capacity 1 under closed-loop load: the
   * summary is kept as given, not recomputed, until it is read back.
   */
  public static QmaxArtifact stated(
      Stamp stamp, Target target, Conditions conditions, Summary summary, List<QmaxStep> steps) {
    return new QmaxArtifact(
        Header.of(ArtifactKind.QMAX, stamp),
        target.model(),
        target.endpoint(),
        target.transport(),
        target.sloMs(),
        target.deployedConfig(),
        conditions.runs(),
        conditions.holdS(),
        conditions.windowS(),
        true,
        conditions.unboundedQueue(),
        summary.qMax(),
        summary.qMaxPerRun(),
        summary.qMaxBracketed(),
        summary.refined(),
        summary.sMeanS(),
        summary.sP95S(),
        CLOSED_LOOP,
        conditions.platform(),
        steps,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /** This artifact with the ladder's drift check, or without one ({@code null}). */
  public QmaxArtifact withDrift(@Nullable QmaxDrift drift) {
    return derived(steps, provenance(), rungChecks, drift, warmupRamp, hostSpeed, idleStart);
  }

  /** This artifact with how its warm-up's requests ramped, or without ({@code null}). */
  public QmaxArtifact withWarmupRamp(@Nullable WarmupRamp ramp) {
    return derived(steps, provenance(), rungChecks, drift, ramp, hostSpeed, idleStart);
  }

  /** This artifact with its open-loop rung below saturation, or without ({@code null}). */
  public QmaxArtifact withIdleStart(@Nullable IdleStartRung rung) {
    return derived(steps, provenance(), rungChecks, drift, warmupRamp, hostSpeed, rung);
  }

  /**
   * How much faster a request that finds the instance idle is served, from {@link #idleStart} (none
   * without the rung or with too few requests of either kind in it).
   */
  public IdleStart idleStartFactors(String file) {
    return idleStart == null
        ? IdleStart.NONE
        : idleStart.idleStart(Path.of(file).getFileName().toString()).orElse(IdleStart.NONE);
  }

  /** This artifact with its host's speed over the ladder, or without ({@code null}). */
  public QmaxArtifact withHostSpeed(@Nullable HostSpeedLog log) {
    return derived(steps, provenance(), rungChecks, drift, warmupRamp, log, idleStart);
  }

  /**
   * The host speed an instance model from this ladder is taken at.
   *
   * @param cpuMs the host probe's time, ms (larger is slower)
   * @param perRung whether every usable step has its own {@code host_cpu_ms}, so that {@link
   *     #atHostSpeed} can bring the ladder to this one speed
   * @param source where it comes from
   */
  public record HostSpeedReference(double cpuMs, boolean perRung, String source) {
    public HostSpeedReference {
      java.util.Objects.requireNonNull(source, "source");
      if (!(cpuMs > 0) || Double.isInfinite(cpuMs)) {
        throw new ArtifactException(
            "host speed reference (" + cpuMs + " ms, " + source + ") must be finite and positive");
      }
    }
  }

  /**
   * The host speed an instance model from this ladder is taken at, or {@code null} without a host
   * log: the median of the in-service host's seconds over the ladder. When every usable step has
   * its {@code host_cpu_ms}, {@link #atHostSpeed} brings each rung to it, so a rung measured while
   * its host ran slow is not taken for a slow instance (measurements/simulator-calibration.md,
   * "Runs h, i and j").
   */
  public @Nullable HostSpeedReference hostSpeedReference() {
    if (hostSpeed == null) {
      return null;
    }
    Double median = hostSpeed.inServiceQuantile(0.5);
    if (median == null) {
      return null;
    }
    List<QmaxStep> usable =
        steps.stream().filter(s -> s.isUsable() && s.achievedRps() != null).toList();
    boolean perRung = !usable.isEmpty() && usable.stream().allMatch(s -> s.hostCpuMs() != null);
    return new HostSpeedReference(
        median,
        perRung,
        perRung
            ? "the ladder's median host second, each rung scaled to it from its own host_cpu_ms"
            : "the ladder's median host second; its rungs have no host_cpu_ms, so they are taken"
                + " as measured");
  }

  /**
   * This ladder as it would have measured with its host at {@code referenceCpuMs} throughout: each
   * step with a {@code host_cpu_ms} brought to it ({@link QmaxStep#atHostSpeed}), the derived
   * fields recomputed.
   */
  public QmaxArtifact atHostSpeed(double referenceCpuMs) {
    return derived(
        steps.stream().map(s -> s.atHostSpeed(referenceCpuMs)).toList(),
        provenance(),
        rungChecks,
        drift,
        warmupRamp,
        hostSpeed,
        idleStart);
  }

  /**
   * This artifact with the rung checks measured alongside its steps (derived fields recomputed).
   */
  public QmaxArtifact withRungChecks(List<RungCheck> checks) {
    return derived(steps, provenance(), checks, drift, warmupRamp, hostSpeed, idleStart);
  }

  /** This artifact under another provenance (derived fields recomputed). */
  public QmaxArtifact withProvenance(Provenance provenance) {
    return derived(steps, provenance, rungChecks, drift, warmupRamp, hostSpeed, idleStart);
  }

  /**
   * How much slower than warm a new instance serves its first requests, from {@link #warmupRamp}
   * (none without one, or when the warm-up's instance was already warm).
   */
  public ColdStart coldStart(String file) {
    return warmupRamp == null
        ? ColdStart.NONE
        : warmupRamp.coldStart("the warm-up of " + Path.of(file).getFileName());
  }

  /** The steps as the planner sees them. */
  public Ladder ladder() {
    return Ladder.of(steps.stream().map(QmaxStep::toRung).toList(), sloMs);
  }

  /** This artifact with every derived field recomputed from its steps. */
  public QmaxArtifact withDerived() {
    return derived(steps, provenance(), rungChecks, drift, warmupRamp, hostSpeed, idleStart);
  }

  /**
   * The one copy: everything but the steps, provenance, rung checks, drift, the warm-up ramp, the
   * host log and the idle-start rung kept, every derived value recomputed from the steps (S stated
   * at the top level is kept when no rung gives one).
   */
  private QmaxArtifact derived(
      List<QmaxStep> withSteps,
      Provenance provenance,
      @Nullable List<RungCheck> checks,
      @Nullable QmaxDrift drift,
      @Nullable WarmupRamp ramp,
      @Nullable HostSpeedLog host,
      @Nullable IdleStartRung idle) {
    Ladder ladder = Ladder.of(withSteps.stream().map(QmaxStep::toRung).toList(), sloMs);
    Optional<Ladder.ServiceTime> s = ladder.serviceTime();
    return new QmaxArtifact(
        header.withProvenance(provenance),
        model,
        endpoint,
        transport,
        sloMs,
        deployedConfig,
        ladder.runs(),
        holdS,
        windowS,
        frozen,
        unboundedQueue,
        ladder.qMax(),
        ladder.qMaxPerRun(),
        ladder.bracketed(),
        ladder.refined(),
        s.map(Ladder.ServiceTime::meanSeconds).orElse(sMeanS),
        s.map(Ladder.ServiceTime::p95Seconds).orElse(sP95S),
        loadModel,
        platform,
        withSteps.stream().map(step -> step.withMeetsSlo(sloMs)).toList(),
        checks,
        QmaxInterval.of(withSteps, checks, sloMs, ladder.qMax()).orElse(null),
        drift == null ? null : drift.withDerived(),
        ramp,
        host,
        idle);
  }

  /** The planner's input; S from the lowest rung, else from the top level, else refused. */
  public Measurement measurement(String file) {
    Ladder ladder = ladder();
    Optional<Ladder.ServiceTime> s = ladder.serviceTime();
    double mean = s.map(Ladder.ServiceTime::meanSeconds).orElse(sMeanS == null ? -1 : sMeanS);
    double p95 = s.map(Ladder.ServiceTime::p95Seconds).orElse(sP95S == null ? -1 : sP95S);
    if (mean <= 0 || p95 <= 0) {
      throw new ArtifactException(
          file
              + ": no uncontended service time: give the lowest usable step latency_mean_ms and"
              + " latency_p95_ms, or the top level s_mean_s and s_p95_s (written by "
              + ArtifactKind.QMAX.writer()
              + ")");
    }
    return new Measurement(
        ladder,
        mean,
        p95,
        serviceTimes(ladder, mean, p95),
        Boolean.TRUE.equals(frozen),
        Boolean.TRUE.equals(unboundedQueue),
        qMax,
        drift == null ? List.of() : drift.rungDrifts());
  }

  /**
   * The latency histogram of the rung S is read at ({@link Ladder#serviceRungs()}: N=1 when
   * measured) when recorded, else a lognormal fit.
   */
  private ServiceTimeDistribution serviceTimes(Ladder ladder, double mean, double p95) {
    for (Rung at : ladder.serviceRungs()) {
      for (QmaxStep step : steps) {
        Rung r = step.toRung();
        if (r.runIndex() == at.runIndex()
            && r.stepIndex() == at.stepIndex()
            && r.concurrency() == at.concurrency()
            && step.latencyHistogram() != null) {
          return ServiceTimeDistribution.ofQuantiles(
              Histograms.quantilesSeconds(Histograms.decode(step.latencyHistogram()), 1024),
              "measured latency histogram at concurrency " + step.concurrency());
        }
      }
    }
    return ServiceTimeDistribution.lognormal(mean, p95);
  }

  /** The default file name: {@code qmax-<model>-<transport>-<slug>.json}. */
  public String defaultFileName() {
    return ArtifactNames.qmax(model, transport, DeployedConfig.slugOf(deployedConfig));
  }
}
