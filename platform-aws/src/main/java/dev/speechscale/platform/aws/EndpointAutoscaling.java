package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.ScaleInAlarmChoice;
import dev.speechscale.artifacts.ScalingGate;
import dev.speechscale.artifacts.ScheduledFloorEntry;
import dev.speechscale.platform.MetricQuery;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentTier;
import software.amazon.awscdk.services.applicationautoscaling.AdjustmentType;
import software.amazon.awscdk.services.applicationautoscaling.MetricAggregationType;
import software.amazon.awscdk.services.applicationautoscaling.PredefinedMetric;
import software.amazon.awscdk.services.applicationautoscaling.ScalableTarget;
import software.amazon.awscdk.services.applicationautoscaling.ScalingSchedule;
import software.amazon.awscdk.services.applicationautoscaling.Schedule;
import software.amazon.awscdk.services.applicationautoscaling.ServiceNamespace;
import software.amazon.awscdk.services.applicationautoscaling.StepScalingAction;
import software.amazon.awscdk.services.applicationautoscaling.TargetTrackingScalingPolicy;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.ApplicationScalingAction;
import software.amazon.awscdk.services.sagemaker.CfnEndpoint;
import software.constructs.Construct;

/**
 * The plan's scaling policy, as two asymmetric policies on one scalable target.
 *
 * <ul>
 *   <li>Scale out: target tracking on the predefined high-resolution {@code
 *       SageMakerVariantConcurrentRequestsPerModelHighResolution} metric
 *       (ConcurrentRequestsPerModel, 10 s) at the plan's {@code scaling_target_value}, with the
 *       plan's scale-out cooldown and {@code DisableScaleIn}, so target tracking never removes
 *       capacity.
 *   <li>Scale in: a step policy that removes exactly one instance ({@code ChangeInCapacity} −1, the
 *       plan's scale-in cooldown) when its own alarm sees the plan's {@code scale_in_alarm} of
 *       ConcurrentRequestsPerModel ({@code maximum_10s}: Maximum over 10 s, the tracking alarm's
 *       own, which a fresh scale-out cannot leave in ALARM; {@code average_60s}: Average over 60 s,
 *       the pair before issue 35) at or below the plan's {@code scale_in_threshold} for 3
 *       consecutive periods. A step scale-in is not blocked by target tracking, so only the alarm's
 *       statistic and period keep the two from fighting.
 * </ul>
 *
 * <p>Each of the plan's {@code scheduled_floors} is a scheduled action on the target, named {@code
 * floor-HHMM}, schedule {@code cron(M H * * ? *)} (UTC), setting MinCapacity only.
 *
 * <p>The scale-in alarm treats missing data as {@code notBreaching} (scaling module's {@code
 * TreatMissingData.SCALE_IN_DEPLOYED}, where the choice is argued): a period nobody measured is
 * never read as a quiet one, as Application Auto Scaling documents for target tracking ("It does
 * not perform scale in because it does not interpret insufficient data as low utilization",
 * Application Auto Scaling User Guide, "How target tracking scaling for Application Auto Scaling
 * works"). {@code breaching}, deployed before, removed an instance whenever the metric was absent:
 * before the first datapoint and with no instance in service. The rules CloudWatch evaluates it by
 * are in the CloudWatch User Guide, "Configuring how CloudWatch alarms treat missing data"
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html).
 */
public final class EndpointAutoscaling extends Construct {
  /** Consecutive periods the scale-in alarm must see. */
  public static final int SCALE_IN_EVALUATION_PERIODS = 3;

  private final ScalableTarget target;
  private final Alarm scaleInAlarm;

  EndpointAutoscaling(
      Construct scope,
      String id,
      AwsEndpointSpec spec,
      ScalingGate.Decision.Attach attach,
      CfnEndpoint endpoint) {
    super(scope, id);
    EndpointConfig effective = attach.effective();
    String endpointName = spec.endpointName();

    target =
        ScalableTarget.Builder.create(this, "Target")
            .serviceNamespace(ServiceNamespace.SAGEMAKER)
            .scalableDimension(AwsNames.SCALABLE_DIMENSION)
            .resourceId(spec.resourceId())
            .minCapacity(effective.minInstances())
            .maxCapacity(effective.maxInstances())
            .build();
    // The variant must exist before Application Auto Scaling can register it.
    target.getNode().addDependency(endpoint);
    // Scheduled floors: one scheduled action each on the scalable target (CfnScalableTarget
    // ScheduledActions), daily cron in UTC, ScalableTargetAction MinCapacity only (MaxCapacity
    // unchanged). AAS User Guide, "How scheduled scaling for Application Auto Scaling works".
    for (ScheduledFloorEntry f : effective.scheduledFloorsOrNone()) {
      target.scaleOnSchedule(
          AwsNames.scheduledFloor(f),
          ScalingSchedule.builder()
              .schedule(Schedule.expression(AwsNames.floorCron(f)))
              .minCapacity(f.minCapacity())
              .build());
    }

    TargetTrackingScalingPolicy.Builder.create(this, "ScaleOut")
        .scalingTarget(target)
        .policyName(AwsNames.targetTrackingPolicy(endpointName))
        .predefinedMetric(
            PredefinedMetric.SAGEMAKER_VARIANT_CONCURRENT_REQUESTS_PER_MODEL_HIGH_RESOLUTION)
        .targetValue(effective.scalingTargetValue())
        .disableScaleIn(true)
        .scaleOutCooldown(Duration.seconds(effective.scaleOutCooldownS()))
        .build();

    ScaleInAlarmChoice alarm = effective.scaleInAlarmOrDefault();
    StepScalingAction scaleIn =
        StepScalingAction.Builder.create(this, "ScaleIn")
            .scalingTarget(target)
            .policyName(AwsNames.scaleInPolicy(endpointName))
            .adjustmentType(AdjustmentType.CHANGE_IN_CAPACITY)
            .metricAggregationType(
                alarm == ScaleInAlarmChoice.MAXIMUM_10S
                    ? MetricAggregationType.MAXIMUM
                    : MetricAggregationType.AVERAGE)
            .cooldown(Duration.seconds(effective.scaleInCooldownS()))
            .build();
    // One interval, [-inf, 0) relative to the threshold: whenever the alarm fires, remove one.
    scaleIn.addAdjustment(AdjustmentTier.builder().adjustment(-1).upperBound(0).build());

    scaleInAlarm =
        Alarm.Builder.create(this, "ScaleInAlarm")
            .alarmName(AwsNames.scaleInAlarm(endpointName))
            .alarmDescription(
                String.format(
                    Locale.ROOT,
                    "Remove one instance: "
                        + MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName()
                        + " %s over %d s <= %.3f"
                        + " (the plan's scale_in_threshold) for %d periods",
                    alarm.statistic(),
                    alarm.periodS(),
                    effective.scaleInThreshold(),
                    SCALE_IN_EVALUATION_PERIODS))
            .metric(concurrency(spec, alarm.statistic(), Duration.seconds(alarm.periodS())))
            .threshold(effective.scaleInThreshold())
            .comparisonOperator(ComparisonOperator.LESS_THAN_OR_EQUAL_TO_THRESHOLD)
            .evaluationPeriods(SCALE_IN_EVALUATION_PERIODS)
            .datapointsToAlarm(SCALE_IN_EVALUATION_PERIODS)
            .treatMissingData(TreatMissingData.NOT_BREACHING)
            .build();
    scaleInAlarm.addAlarmAction(new ApplicationScalingAction(scaleIn));
  }

  /** ConcurrentRequestsPerModel of the endpoint's variant with one statistic and period. */
  static Metric concurrency(AwsEndpointSpec spec, String statistic, Duration period) {
    return Metric.Builder.create()
        .namespace(AwsNames.SAGEMAKER_NAMESPACE)
        .metricName(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName())
        .dimensionsMap(dimensions(spec))
        .statistic(statistic)
        .period(period)
        .build();
  }

  /** The dimensions of a variant's invocation metrics. */
  static Map<String, String> dimensions(AwsEndpointSpec spec) {
    return Ordered.map("EndpointName", spec.endpointName(), "VariantName", spec.variantName());
  }

  public ScalableTarget target() {
    return target;
  }

  public Alarm scaleInAlarm() {
    return scaleInAlarm;
  }
}
