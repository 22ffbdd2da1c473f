package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.speechscale.capacity.FleetCost;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.PlanVerdict;
import dev.speechscale.capacity.SurgeCurve;
import dev.speechscale.capacity.Verdict;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A derived scaling plan: every number the endpoint deploys, the findings that judge it, the inputs
 * it came from (measured vs chosen, with provenance) and the deployable configuration block.
 *
 * <p>{@code cost} is written only when the plan was priced ({@code plan --price-per-hour}), so an
 * unpriced plan reads and writes back byte for byte as before. {@code surge_curve} (additive) is
 * the {@code surge_survival} simulation rerun at other thresholds ({@link SurgeCurve}); plans
 * written before it have none, and read and write back as they were. {@code scale_in_alarm}
 * (additive, {@link ScaleInAlarmChoice}) is the step scale-in alarm's statistic and period; a plan
 * without it was written before it and deploys the Average over 60 s it deployed then. {@code
 * scheduled_floors} (additive, {@link ScheduledFloorEntry}, written only when not empty) are the
 * Application Auto Scaling scheduled actions raising MinCapacity at UTC times of day.
 *
 * <p>It opens with the {@link Header} every artifact shares, unwrapped into the JSON's top level.
 * The rest stays flat because its components are the JSON's fields, in order; {@link #of} assembles
 * it from sections ({@link Stamp}, {@link Target}, {@link Judgement}, {@link Plan.QMax}, {@link
 * Thresholds}, {@link Plan.Fleet}, {@link Plan.Timing}, {@link Plan.Surge} (the planner's own
 * sections), {@link Inputs}, {@link Deployment}). The planner's sections are not unwrapped into it
 * as the header is, because the JSON would not keep its shape: their fields are named otherwise
 * ({@code scale_out_cooldown_seconds} against {@code scale_out_cooldown_s}, {@code
 * throughput_at_c_scale_max_per_second} against {@code throughput_at_c_scale_max_rps}), the fleet's
 * {@code naive_max_instances} and the timing's {@code first_chunk_alarm_ms} stand after the surge
 * fields, and each units ratio is written as two fields ({@code ratio_max} and {@code
 * ratio_max_rung}) apart from each other. It runs past 300 lines because the sections sit beside
 * the wire fields they fill, and the factory and the one copy name every field.
 *
 * <p>A plan is what gates autoscaling: the platforms attach scaling only when a plan's model and
 * fingerprint match the deployment, its verdict is not {@code INFEASIBLE}, and it carries a
 * measured units conversion ({@code ratio_max} and {@code ratio_average}).
 */
public record PlanArtifact(
    @JsonUnwrapped Header header,
    String model,
    String endpoint,
    @Nullable String instanceType,
    @Nullable DeployedConfig deployedConfig,
    String slug,
    PlanVerdict verdict,
    int qMax,
    boolean qMaxBracketed,
    boolean qMaxRefined,
    double cScaleMax,
    double cScaleMin,
    @Nullable Double scalingTargetValue,
    @Nullable Double scaleInThreshold,
    @Nullable Double ratioMax,
    @Nullable Double ratioAverage,
    @Nullable Integer ratioMaxRung,
    @Nullable Integer ratioAverageRung,
    int minInstances,
    int maxInstances,
    int troughInstances,
    int peakInstances,
    @Nullable Integer minSafeInstances,
    int queueMaxDepth,
    int scaleOutCooldownS,
    int scaleInCooldownS,
    double wMaxS,
    double requestDeadlineS,
    double tTotalS,
    double utilizationMm1,
    double utilizationMg1,
    double serviceCv,
    @Nullable Double shedProbability,
    @JsonProperty("recommended_c_scale_max") @Nullable Double recommendedCScaleMax,
    @JsonProperty("throughput_at_c_scale_max_rps") @Nullable Double throughputAtCScaleMaxRps,
    @Nullable Integer naiveMaxInstances,
    @Nullable Double firstChunkAlarmMs,
    List<FindingEntry> findings,
    Inputs inputs,
    EndpointConfigBlock endpointConfig,
    String configBlock,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable FleetCost cost,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<SurgeCurve.Point> surgeCurve,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String scaleInAlarm,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @Nullable List<ScheduledFloorEntry> scheduledFloors,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String scalingMetric)
    implements Artifact.Sectioned {

  /**
   * The flat wire record, as JSON reads and writes it field by field; build one with {@link #of}
   * from its sections.
   */
  public PlanArtifact {
    findings = findings == null ? List.of() : List.copyOf(findings);
    surgeCurve = surgeCurve == null ? null : List.copyOf(surgeCurve);
    scheduledFloors = ScheduledFloorEntry.sorted(scheduledFloors);
  }

  /**
   * What the plan is for.
   *
   * @param model the model
   * @param endpoint its endpoint
   * @param instanceType the instance type it deploys on, or {@code null} when none was measured
   * @param deployedConfig the measured fingerprint (its slug is written beside it), or {@code
   *     null}: a plan without one never pairs with a deployment
   */
  public record Target(
      String model,
      String endpoint,
      @Nullable String instanceType,
      @Nullable DeployedConfig deployedConfig) {}

  /**
   * The plan's verdict and the findings behind it.
   *
   * @param verdict {@code ok}, {@code warn (N)} or {@code INFEASIBLE}
   * @param findings worst first
   */
  public record Judgement(PlanVerdict verdict, List<FindingEntry> findings) {}

  /**
   * A measured ratio of the deployed metric to the client's concurrency.
   *
   * @param ratio deployed metric / client mean
   * @param rung the concurrency it was measured at
   */
  public record Ratio(double ratio, int rung) {}

  /**
   * The scaling thresholds, in client units and (when a ratio was measured) the deployed metric's.
   *
   * @param cScaleMax scale-out threshold in client units
   * @param cScaleMin scale-in threshold in client units
   * @param scalingTargetValue C_scale_max in the deployed metric's units, or {@code null}
   * @param scaleInThreshold C_scale_min in the deployed metric's units, or {@code null}
   * @param ratioMax the Maximum/client ratio used, or {@code null}
   * @param ratioAverage the Average/client ratio used, or {@code null}
   */
  public record Thresholds(
      double cScaleMax,
      double cScaleMin,
      @Nullable Double scalingTargetValue,
      @Nullable Double scaleInThreshold,
      @Nullable Ratio ratioMax,
      @Nullable Ratio ratioAverage) {}

  /**
   * What deploys: the configuration block's fields and its rendered text.
   *
   * @param endpointConfig the fields
   * @param configBlock the block as the endpoint config file takes it
   */
  public record Deployment(EndpointConfigBlock endpointConfig, String configBlock) {}

  /**
   * An unpriced plan without a surge curve, assembled from its sections. Past 60 lines only because
   * it names each of the wire record's fields once, in the JSON's order.
   */
  public static PlanArtifact of(
      Stamp stamp,
      Target target,
      Judgement judgement,
      Plan.QMax qMax,
      Thresholds thresholds,
      Plan.Fleet fleet,
      Plan.Timing timing,
      Plan.Surge surge,
      Inputs inputs,
      Deployment deployment) {
    Ratio ratioMax = thresholds.ratioMax();
    Ratio ratioAverage = thresholds.ratioAverage();
    return new PlanArtifact(
        Header.of(ArtifactKind.PLAN, stamp),
        target.model(),
        target.endpoint(),
        target.instanceType(),
        target.deployedConfig(),
        DeployedConfig.slugOf(target.deployedConfig()),
        judgement.verdict(),
        qMax.qMax(),
        qMax.bracketed(),
        qMax.refined(),
        thresholds.cScaleMax(),
        thresholds.cScaleMin(),
        thresholds.scalingTargetValue(),
        thresholds.scaleInThreshold(),
        ratioMax == null ? null : ratioMax.ratio(),
        ratioAverage == null ? null : ratioAverage.ratio(),
        ratioMax == null ? null : ratioMax.rung(),
        ratioAverage == null ? null : ratioAverage.rung(),
        fleet.minInstances(),
        fleet.maxInstances(),
        fleet.troughInstances(),
        fleet.peakInstances(),
        fleet.minSafeInstances(),
        fleet.queueMaxDepth(),
        timing.scaleOutCooldownSeconds(),
        timing.scaleInCooldownSeconds(),
        timing.wMaxSeconds(),
        timing.requestDeadlineSeconds(),
        timing.tTotalSeconds(),
        surge.utilizationMm1(),
        surge.utilizationMg1(),
        surge.serviceCv(),
        surge.shedProbability(),
        surge.recommendedCScaleMax(),
        surge.throughputAtCScaleMaxPerSecond(),
        fleet.naiveMaxInstances(),
        timing.firstChunkAlarmMs(),
        judgement.findings(),
        inputs,
        deployment.endpointConfig(),
        deployment.configBlock(),
        null,
        null,
        null,
        List.of(),
        null);
  }

  /**
   * This plan priced: {@code cost} is the fleet's cost at one instance price ({@code plan
   * --price-per-hour}), or {@code null} for none.
   */
  public PlanArtifact withCost(@Nullable FleetCost cost) {
    return with(cost, surgeCurve, scaleInAlarm, verdict, findings, configBlock, scheduledFloors);
  }

  /** This plan with the surge simulation rerun at other thresholds, or without ({@code null}). */
  public PlanArtifact withSurgeCurve(@Nullable List<SurgeCurve.Point> surgeCurve) {
    return with(cost, surgeCurve, scaleInAlarm, verdict, findings, configBlock, scheduledFloors);
  }

  /**
   * This plan deploying {@code alarm} as its step scale-in alarm, with {@code finding} (the {@code
   * policy_conflict} finding that chose it) among its findings, after the others of its verdict.
   */
  public PlanArtifact withScaleInAlarm(
      ScaleInAlarmChoice alarm, PlanVerdict verdict, List<FindingEntry> findings, String why) {
    return with(
        cost,
        surgeCurve,
        alarm.label(),
        verdict,
        findings,
        ConfigBlock.withAlarm(configBlock, alarm, why),
        scheduledFloors);
  }

  /**
   * This plan with scheduled minimum-capacity floors ({@code scheduled_floors}, UTC; written only
   * when there are some, so plans without floors read and write back byte for byte as before).
   */
  public PlanArtifact withScheduledFloors(List<ScheduledFloorEntry> floors) {
    return with(cost, surgeCurve, scaleInAlarm, verdict, findings, configBlock, floors);
  }

  /**
   * The step scale-in alarm this plan deploys: its {@code scale_in_alarm}, or for a plan written
   * before the field ({@code null}) the Average over 60 s it deployed then, so drift, validate and
   * replay of a recorded run compare against what was deployed. {@code plan} always writes the
   * field ({@link ScaleInAlarmChoice#DEFAULT} unless the simulation says otherwise).
   */
  public ScaleInAlarmChoice scaleInAlarmChoice() {
    return scaleInAlarm == null
        ? ScaleInAlarmChoice.AVERAGE_60S
        : ScaleInAlarmChoice.ofLabel(scaleInAlarm);
  }

  /** The one copy: every field kept but the additive ones and the findings. */
  private PlanArtifact with(
      @Nullable FleetCost cost,
      @Nullable List<SurgeCurve.Point> surgeCurve,
      @Nullable String scaleInAlarm,
      PlanVerdict verdict,
      List<FindingEntry> findings,
      String configBlock,
      @Nullable List<ScheduledFloorEntry> scheduledFloors) {
    return new PlanArtifact(
        header,
        model,
        endpoint,
        instanceType,
        deployedConfig,
        slug,
        verdict,
        qMax,
        qMaxBracketed,
        qMaxRefined,
        cScaleMax,
        cScaleMin,
        scalingTargetValue,
        scaleInThreshold,
        ratioMax,
        ratioAverage,
        ratioMaxRung,
        ratioAverageRung,
        minInstances,
        maxInstances,
        troughInstances,
        peakInstances,
        minSafeInstances,
        queueMaxDepth,
        scaleOutCooldownS,
        scaleInCooldownS,
        wMaxS,
        requestDeadlineS,
        tTotalS,
        utilizationMm1,
        utilizationMg1,
        serviceCv,
        shedProbability,
        recommendedCScaleMax,
        throughputAtCScaleMaxRps,
        naiveMaxInstances,
        firstChunkAlarmMs,
        findings,
        inputs,
        endpointConfig,
        configBlock,
        cost,
        surgeCurve,
        scaleInAlarm,
        scheduledFloors,
        scalingMetric);
  }

  /**
   * What this plan's target tracking tracks: its {@code scaling_metric} ({@link
   * ScalingMetricChoice}; written only when set, by {@code search}), else
   * ConcurrentRequestsPerModel.
   */
  public ScalingMetricChoice scalingMetricChoice() {
    return ScalingMetricChoice.ofLabel(scalingMetric);
  }

  /** Whether the plan refuses deployment. */
  public boolean infeasible() {
    return verdict.kind() == PlanVerdict.Kind.INFEASIBLE;
  }

  /** Whether the thresholds were converted with a measured ratio. */
  public boolean hasUnitsConversion() {
    return ratioMax != null
        && ratioAverage != null
        && scalingTargetValue != null
        && scaleInThreshold != null;
  }

  /**
   * One finding as recorded.
   *
   * @param name stable identifier
   * @param verdict {@code ok}, {@code warn}, {@code infeasible} or {@code suppressed}
   * @param detail the numbers behind it
   * @param recommendation what to change, or {@code null}
   */
  public record FindingEntry(
      String name, Verdict verdict, String detail, @Nullable String recommendation) {

    /** A finding that recommends nothing (its {@code recommendation} is absent). */
    public static FindingEntry withoutRecommendation(String name, Verdict verdict, String detail) {
      return new FindingEntry(name, verdict, detail, null);
    }
  }

  /**
   * What the plan was derived from.
   *
   * @param measured numbers from the qmax and ttotal artifacts
   * @param chosen numbers the operator chose on the command line
   */
  public record Inputs(Measured measured, Chosen chosen) {}

  /**
   * Measured inputs.
   *
   * @param transport the ladder's transport
   * @param sloMs the SLO the ladder was judged against
   * @param qMaxPerRun Q_max of each run
   * @param sMeanS uncontended mean service time
   * @param sP95S uncontended p95 service time
   * @param serviceTimeSource where the surge simulation's service times came from
   * @param charsPerRequest mean characters per request
   * @param throughput the measured throughput curve (held concurrency, req/s)
   * @param tTotalMeasuredS the measured part of T
   * @param policyLagBoundS the policy detection lag bound
   * @param tTotalMeasured false when T was assumed
   * @param qmaxSource the qmax artifact
   * @param ttotalSource the ttotal artifact, or {@code null} when T was assumed
   * @param tTotalRuns how many scale-outs were timed and which one the plan sized against, or
   *     {@code null} when T was assumed
   */
  public record Measured(
      String transport,
      double sloMs,
      List<Integer> qMaxPerRun,
      double sMeanS,
      double sP95S,
      String serviceTimeSource,
      @Nullable Double charsPerRequest,
      List<List<Double>> throughput,
      double tTotalMeasuredS,
      double policyLagBoundS,
      boolean tTotalMeasured,
      SourceFile qmaxSource,
      @Nullable SourceFile ttotalSource,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable TtotalChoice tTotalRuns) {}

  /**
   * Which of the timed scale-outs the plan sized T against.
   *
   * @param runs how many scale-outs the ttotal artifact timed
   * @param statistic {@code max}, {@code p90} or {@code median} (nearest rank); {@code single run}
   *     when only one was timed
   * @param tTotalS the measured T_total used
   * @param tTotalPerRunS every run's T_total, in the order measured
   * @param why why this statistic
   */
  public record TtotalChoice(
      int runs, String statistic, double tTotalS, List<Double> tTotalPerRunS, String why) {}

  /**
   * Chosen inputs.
   *
   * @param sloMs the SLO
   * @param surgeRatio k
   * @param peakRps peak request rate, or {@code null}
   * @param peakStreams peak concurrent streams, or {@code null}
   * @param troughRps trough request rate, or {@code null}
   * @param troughStreams trough streams, or {@code null}
   * @param minFloor fewest instances
   * @param shedTarget target for recommended_c_scale_max
   * @param ceilingS invocation ceiling
   * @param trials simulated surges
   * @param seed simulation seed
   */
  public record Chosen(
      double sloMs,
      double surgeRatio,
      @Nullable Double peakRps,
      @Nullable Double peakStreams,
      @Nullable Double troughRps,
      @Nullable Double troughStreams,
      int minFloor,
      double shedTarget,
      double ceilingS,
      int trials,
      long seed) {}

  /**
   * Provenance of an input artifact.
   *
   * @param file its path as given
   * @param kind its kind
   * @param createdAt when it was written
   * @param slug its fingerprint slug
   * @param toolVersion the tool that wrote it
   */
  public record SourceFile(
      String file, String kind, Instant createdAt, String slug, String toolVersion) {}

  /**
   * The deployable endpoint configuration: the fields the endpoint config file and the AWS stacks
   * take, exactly as derived. Thresholds are {@code null} when they could not be converted.
   */
  public record EndpointConfigBlock(
      String modelName,
      @Nullable String instanceType,
      int minInstances,
      int maxInstances,
      @Nullable Double scalingTargetValue,
      @Nullable Double scaleInThreshold,
      int ttfabSloMs,
      int queueMaxDepth,
      int scaleOutCooldownS,
      int scaleInCooldownS,
      @Nullable Double firstChunkAlarmMs) {}

  /** The default file name: {@code plan-<model>.json}. */
  public String defaultFileName() {
    return ArtifactNames.plan(model);
  }
}
