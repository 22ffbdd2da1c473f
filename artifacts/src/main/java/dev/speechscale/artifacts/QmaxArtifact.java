package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.Rung;
import dev.speechscale.capacity.ServiceTimeDistribution;
import java.time.Instant;
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
 */
public record QmaxArtifact(
    int schemaVersion,
    String kind,
    String toolVersion,
    Instant createdAt,
    Provenance provenance,
    String model,
    String endpoint,
    String transport,
    double sloMs,
    DeployedConfig deployedConfig,
    Integer runs,
    Double holdS,
    Double windowS,
    Boolean frozen,
    Boolean unboundedQueue,
    Integer qMax,
    List<Integer> qMaxPerRun,
    Boolean qMaxBracketed,
    Boolean refined,
    Double sMeanS,
    Double sP95S,
    String loadModel,
    String platform,
    List<QmaxStep> steps,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<RungCheck> rungChecks,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable QmaxInterval qMaxInterval,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable QmaxDrift drift)
    implements Artifact {

  public QmaxArtifact {
    steps = steps == null ? List.of() : List.copyOf(steps);
    qMaxPerRun = qMaxPerRun == null ? null : List.copyOf(qMaxPerRun);
    rungChecks = rungChecks == null ? null : List.copyOf(rungChecks);
  }

  /** This artifact with the ladder's drift check, or without one ({@code null}). */
  public QmaxArtifact withDrift(@Nullable QmaxDrift drift) {
    return new QmaxArtifact(
            schemaVersion,
            kind,
            toolVersion,
            createdAt,
            provenance,
            model,
            endpoint,
            transport,
            sloMs,
            deployedConfig,
            runs,
            holdS,
            windowS,
            frozen,
            unboundedQueue,
            qMax,
            qMaxPerRun,
            qMaxBracketed,
            refined,
            sMeanS,
            sP95S,
            loadModel,
            platform,
            steps,
            rungChecks,
            qMaxInterval,
            drift)
        .withDerived();
  }

  /**
   * This artifact with the rung checks measured alongside its steps (derived fields recomputed).
   */
  public QmaxArtifact withRungChecks(List<RungCheck> checks) {
    return derivedWith(checks);
  }

  /** The steps as the planner sees them. */
  public Ladder ladder() {
    return Ladder.of(steps.stream().map(QmaxStep::toRung).toList(), sloMs);
  }

  /** This artifact with every derived field recomputed from its steps. */
  public QmaxArtifact withDerived() {
    return derivedWith(rungChecks);
  }

  private QmaxArtifact derivedWith(@Nullable List<RungCheck> checks) {
    Ladder ladder = ladder();
    Optional<Ladder.ServiceTime> s = ladder.serviceTime();
    return new QmaxArtifact(
        schemaVersion,
        kind,
        toolVersion,
        createdAt,
        provenance,
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
        steps.stream().map(step -> step.withDerived(sloMs)).toList(),
        checks,
        QmaxInterval.of(steps, checks, sloMs, ladder.qMax()).orElse(null),
        drift == null ? null : drift.withDerived());
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
