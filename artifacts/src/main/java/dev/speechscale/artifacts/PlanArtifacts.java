package dev.speechscale.artifacts;

import dev.speechscale.capacity.Finding;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.ScaleOutTime;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.capacity.SurgeCurve;
import dev.speechscale.capacity.ThroughputCurve;
import dev.speechscale.capacity.UnitsRatio;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Builds a {@link PlanArtifact} from a computed plan and the artifacts it came from. */
public final class PlanArtifacts {
  private PlanArtifacts() {}

  /**
   * Everything a plan artifact records.
   *
   * @param plan the computed plan
   * @param qmax the qmax artifact (derived values recomputed)
   * @param qmaxFile its path as given
   * @param measurement the planner input built from it
   * @param ttotal the ttotal artifact, or {@code null} when T was assumed
   * @param ttotalFile its path, or {@code null} (only when {@code ttotal} is)
   * @param scaleOut T as used
   * @param scenario the chosen inputs
   * @param provenance this run's provenance
   * @param now the creation time
   * @param tTotalStatistic which of several timed scale-outs T is sized against
   */
  public record Sources(
      Plan plan,
      QmaxArtifact qmax,
      String qmaxFile,
      Measurement measurement,
      @Nullable TtotalArtifact ttotal,
      @Nullable String ttotalFile,
      ScaleOutTime scaleOut,
      Scenario scenario,
      Provenance provenance,
      Instant now,
      TtotalRuns.Statistic tTotalStatistic) {}

  public static PlanArtifact build(Sources in) {
    Plan p = in.plan();
    QmaxArtifact q = in.qmax();
    PlanArtifact.EndpointConfigBlock block = configBlock(in);
    return PlanArtifact.of(
            Stamp.current(in.now(), in.provenance()),
            new PlanArtifact.Target(
                q.model(), q.endpoint(), block.instanceType(), q.deployedConfig()),
            new PlanArtifact.Judgement(
                p.verdict(), p.findings().stream().map(PlanArtifacts::entry).toList()),
            p.qMaxSection(),
            new PlanArtifact.Thresholds(
                p.cScaleMax(),
                p.cScaleMin(),
                p.scalingTargetValue(),
                p.scaleInThreshold(),
                ratio(p.ratioMax()),
                ratio(p.ratioAverage())),
            p.fleet(),
            p.timing(),
            p.surge(),
            new PlanArtifact.Inputs(measured(in), chosen(in.scenario())),
            new PlanArtifact.Deployment(block, ConfigBlock.render(block, p, in.scenario())))
        .withSurgeCurve(SurgeCurve.of(in.measurement(), in.scaleOut(), in.scenario(), p));
  }

  private static PlanArtifact.@Nullable Ratio ratio(@Nullable UnitsRatio r) {
    return r == null ? null : new PlanArtifact.Ratio(r.ratio(), r.atConcurrency());
  }

  /** The endpoint configuration block the plan recommends. */
  private static PlanArtifact.EndpointConfigBlock configBlock(Sources in) {
    Plan p = in.plan();
    QmaxArtifact q = in.qmax();
    return new PlanArtifact.EndpointConfigBlock(
        q.model(),
        q.deployedConfig() == null ? null : q.deployedConfig().instanceType(),
        p.minInstances(),
        p.maxInstances(),
        p.scalingTargetValue(),
        p.scaleInThreshold(),
        (int) Math.round(in.scenario().sloMs()),
        p.queueMaxDepth(),
        p.scaleOutCooldownSeconds(),
        p.scaleInCooldownSeconds(),
        p.firstChunkAlarmMs());
  }

  private static PlanArtifact.FindingEntry entry(Finding f) {
    return new PlanArtifact.FindingEntry(f.name(), f.verdict(), f.detail(), f.recommendation());
  }

  private static PlanArtifact.Measured measured(Sources in) {
    QmaxArtifact q = in.qmax();
    Measurement m = in.measurement();
    ThroughputCurve curve = m.ladder().throughputCurve();
    List<List<Double>> points =
        curve.points().stream().map(pt -> List.of(pt.concurrency(), pt.perSecond())).toList();
    return new PlanArtifact.Measured(
        q.transport(),
        q.sloMs(),
        m.ladder().qMaxPerRun(),
        m.sMeanSeconds(),
        m.sP95Seconds(),
        m.serviceTimes().origin(),
        m.ladder().charsPerRequest().isPresent()
            ? m.ladder().charsPerRequest().getAsDouble()
            : null,
        points,
        in.scaleOut().measuredSeconds(),
        in.scaleOut().policyLagBoundSeconds(),
        in.scaleOut().measured(),
        source(in.qmaxFile(), q),
        in.ttotal() == null
            ? null
            : source(
                Objects.requireNonNull(
                    in.ttotalFile(), "ttotalFile: a ttotal artifact needs its path"),
                in.ttotal()),
        in.ttotal() == null ? null : choice(in.ttotal(), in.tTotalStatistic(), in.scaleOut()));
  }

  private static PlanArtifact.TtotalChoice choice(
      TtotalArtifact t, TtotalRuns.Statistic statistic, ScaleOutTime used) {
    if (t.runs() == null || t.runs().runs().size() < 2) {
      return new PlanArtifact.TtotalChoice(
          1,
          "single run",
          used.measuredSeconds(),
          List.of(used.measuredSeconds()),
          "one scale-out was timed, so T is one draw: time more with `tts-bench ttotal --runs N`");
    }
    int n = t.runs().runs().size();
    String why =
        switch (statistic) {
          case MAX ->
              "the slowest of "
                  + n
                  + " timed scale-outs: the surge the plan absorbs meets whichever scale-out it"
                  + " gets, and with so few runs every percentile estimate sits below the slowest"
                  + " seen (with 10 runs or fewer the nearest-rank p90 is the max anyway)";
          case P90 ->
              "the nearest-rank 90th percentile of "
                  + n
                  + " timed scale-outs (--ttotal-statistic p90): one scale-out in ten may be"
                  + " slower than the plan assumes";
          case MEDIAN ->
              "the median of "
                  + n
                  + " timed scale-outs (--ttotal-statistic median): half of the scale-outs are"
                  + " slower than the plan assumes";
        };
    return new PlanArtifact.TtotalChoice(
        n,
        statistic.label(),
        used.measuredSeconds(),
        t.runs().runs().stream().map(TtotalRuns.Run::tTotalS).toList(),
        why);
  }

  /** How a plan or simulation names an artifact it was built from. */
  public static PlanArtifact.SourceFile source(String file, Artifact a) {
    DeployedConfig fingerprint =
        switch (a) {
          case QmaxArtifact q -> q.deployedConfig();
          case TtotalArtifact t -> t.deployedConfig();
          case PlanArtifact p -> p.deployedConfig();
          case DriftArtifact d -> null;
          case ValidateArtifact v -> null;
          case ReplayArtifact r -> null;
          case SimulateArtifact s -> null;
        };
    return new PlanArtifact.SourceFile(
        file, a.kind(), a.createdAt(), DeployedConfig.slugOf(fingerprint), a.toolVersion());
  }

  private static PlanArtifact.Chosen chosen(Scenario s) {
    Double peakRps = s.peak() instanceof Load.RequestRate r ? r.perSecond() : null;
    Double peakStreams = s.peak() instanceof Load.Streams st ? st.count() : null;
    Double troughRps = s.trough() instanceof Load.RequestRate r ? r.perSecond() : null;
    Double troughStreams = s.trough() instanceof Load.Streams st ? st.count() : null;
    return new PlanArtifact.Chosen(
        s.sloMs(),
        s.surgeRatio(),
        peakRps,
        peakStreams,
        troughRps,
        troughStreams,
        s.minFloor(),
        s.shedTarget(),
        s.ceilingSeconds(),
        s.trials(),
        s.seed());
  }
}
