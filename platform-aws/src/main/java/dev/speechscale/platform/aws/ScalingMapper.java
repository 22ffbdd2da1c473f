package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.MetricQuery.Metric;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScheduledAction;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.util.List;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.applicationautoscaling.model.CustomizedMetricSpecification;
import software.amazon.awssdk.services.applicationautoscaling.model.StepAdjustment;
import software.amazon.awssdk.services.applicationautoscaling.model.StepScalingPolicyConfiguration;
import software.amazon.awssdk.services.applicationautoscaling.model.TargetTrackingScalingPolicyConfiguration;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatch.model.MetricDataQuery;

/** Application Auto Scaling and CloudWatch shapes, as the platform SPI's records. */
final class ScalingMapper {
  private ScalingMapper() {}

  /** What a predefined metric type tracks: metric name, statistic, period. */
  record Tracked(String metricName, @Nullable Statistic statistic, int periodSeconds) {}

  /**
   * The metric behind a target-tracking configuration. The high-resolution predefined metric tracks
   * ConcurrentRequestsPerModel's Maximum over 10 s periods.
   */
  static Tracked tracked(TargetTrackingScalingPolicyConfiguration c) {
    if (c.predefinedMetricSpecification() != null) {
      String type = c.predefinedMetricSpecification().predefinedMetricTypeAsString();
      ScalingMetricChoice planned = ScalingMetricChoice.ofPredefinedOrNull(type);
      if (planned != null) {
        return switch (planned) {
          case CONCURRENT_REQUESTS_PER_MODEL ->
              new Tracked(
                  Metric.CONCURRENT_REQUESTS_PER_MODEL.cloudWatchName(), Statistic.MAXIMUM, 10);
          case INVOCATIONS_PER_INSTANCE ->
              new Tracked(Metric.INVOCATIONS_PER_INSTANCE.cloudWatchName(), Statistic.SUM, 60);
        };
      }
      return switch (type) {
        case "SageMakerVariantProvisionedConcurrencyUtilization" ->
            new Tracked("ProvisionedConcurrencyUtilization", Statistic.AVERAGE, 60);
        default -> new Tracked(type, Statistic.AVERAGE, 60);
      };
    }
    CustomizedMetricSpecification m = c.customizedMetricSpecification();
    if (m != null && m.metricName() != null) {
      return new Tracked(m.metricName(), Statistic.ofCloudWatchName(m.statisticAsString()), 60);
    }
    return new Tracked("(metric math)", null, 60);
  }

  static ScalingPolicy.TargetTracking targetTracking(
      String name, TargetTrackingScalingPolicyConfiguration c) {
    Tracked t = tracked(c);
    return new ScalingPolicy.TargetTracking(
        name,
        t.metricName(),
        t.statistic(),
        t.periodSeconds(),
        c.targetValue() == null ? Double.NaN : c.targetValue(),
        orZero(c.scaleOutCooldown()),
        orZero(c.scaleInCooldown()),
        Boolean.TRUE.equals(c.disableScaleIn()));
  }

  static ScalingPolicy.StepScaling stepScaling(
      String name,
      StepScalingPolicyConfiguration c,
      List<software.amazon.awssdk.services.applicationautoscaling.model.Alarm> alarms) {
    List<ScalingPolicy.Step> steps =
        c.stepAdjustments().stream()
            .map((StepAdjustment s) ->
                new ScalingPolicy.Step(
                    s.metricIntervalLowerBound(),
                    s.metricIntervalUpperBound(),
                    orZero(s.scalingAdjustment())))
            .toList();
    return new ScalingPolicy.StepScaling(
        name,
        c.adjustmentTypeAsString(),
        steps,
        orZero(c.cooldown()),
        alarms.stream()
            .map(software.amazon.awssdk.services.applicationautoscaling.model.Alarm::alarmName)
            .toList());
  }

  static SuspendedState suspended(
      software.amazon.awssdk.services.applicationautoscaling.model.SuspendedState s) {
    if (s == null) {
      return SuspendedState.NONE;
    }
    return new SuspendedState(
        Boolean.TRUE.equals(s.dynamicScalingInSuspended()),
        Boolean.TRUE.equals(s.dynamicScalingOutSuspended()),
        Boolean.TRUE.equals(s.scheduledScalingSuspended()));
  }

  /** A scheduled action as DescribeScheduledActions reports it. */
  static ScheduledAction scheduledAction(
      software.amazon.awssdk.services.applicationautoscaling.model.ScheduledAction a) {
    var t = a.scalableTargetAction();
    return new ScheduledAction(
        a.scheduledActionName(),
        a.schedule(),
        t == null ? null : t.minCapacity(),
        t == null ? null : t.maxCapacity());
  }

  /**
   * A CloudWatch alarm. An alarm on metric math (target tracking's own alarms on the
   * high-resolution metric may be) is described by its first returned metric.
   */
  static Alarm alarm(MetricAlarm a) {
    String metricName = a.metricName();
    Statistic statistic =
        a.extendedStatistic() != null
            ? Statistic.ofCloudWatchName(a.extendedStatistic())
            : a.statistic() == null ? null : Statistic.ofCloudWatchName(a.statisticAsString());
    Integer period = a.period();
    if (metricName == null && a.hasMetrics()) {
      for (MetricDataQuery q : a.metrics()) {
        if (q.metricStat() != null) {
          metricName = q.metricStat().metric().metricName();
          statistic = Statistic.ofCloudWatchName(q.metricStat().stat());
          period = q.metricStat().period();
          break;
        }
      }
    }
    return new Alarm(
        a.alarmName(),
        metricName,
        statistic,
        orZero(period),
        orZero(a.evaluationPeriods()),
        a.threshold() == null ? Double.NaN : a.threshold(),
        comparison(a.comparisonOperatorAsString()),
        state(a.stateValueAsString()),
        a.alarmActions().stream().map(ScalingMapper::actionName).toList(),
        a.treatMissingData());
  }

  /** The policy name in an Application Auto Scaling policy ARN, or the ARN itself. */
  static String actionName(String arn) {
    int i = arn.lastIndexOf(":policyName/");
    return i < 0 ? arn : arn.substring(i + ":policyName/".length());
  }

  /** {@code null} for the anomaly-band operators the SPI does not model. */
  static Alarm.@Nullable Comparison comparison(@Nullable String op) {
    if (op == null) {
      return null;
    }
    return switch (op) {
      case "GreaterThanThreshold" -> Alarm.Comparison.GREATER_THAN_THRESHOLD;
      case "GreaterThanOrEqualToThreshold" -> Alarm.Comparison.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
      case "LessThanThreshold" -> Alarm.Comparison.LESS_THAN_THRESHOLD;
      case "LessThanOrEqualToThreshold" -> Alarm.Comparison.LESS_THAN_OR_EQUAL_TO_THRESHOLD;
      default -> null;
    };
  }

  static Alarm.AlarmState state(String s) {
    if (s == null) {
      return Alarm.AlarmState.INSUFFICIENT_DATA;
    }
    return switch (s) {
      case "OK" -> Alarm.AlarmState.OK;
      case "ALARM" -> Alarm.AlarmState.ALARM;
      default -> Alarm.AlarmState.INSUFFICIENT_DATA;
    };
  }

  private static int orZero(Integer i) {
    return i == null ? 0 : i;
  }
}
