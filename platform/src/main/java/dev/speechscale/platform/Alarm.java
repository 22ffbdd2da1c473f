package dev.speechscale.platform;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A metric alarm.
 *
 * @param name alarm name
 * @param metricName the metric it watches
 * @param statistic the statistic it evaluates
 * @param periodSeconds seconds per datapoint
 * @param evaluationPeriods consecutive datapoints that must breach
 * @param threshold the threshold, in the metric's units
 * @param comparison how the datapoint is compared with the threshold
 * @param state the alarm's state now
 * @param actions names of the policies it triggers
 * @param treatMissingData how it treats a period without data, as CloudWatch spells it ({@code
 *     missing}, {@code notBreaching}, {@code breaching}, {@code ignore}); {@code null} when the
 *     alarm states none, which CloudWatch reads as {@code missing}
 */
public record Alarm(
    String name,
    @Nullable String metricName,
    @Nullable Statistic statistic,
    int periodSeconds,
    int evaluationPeriods,
    double threshold,
    @Nullable Comparison comparison,
    AlarmState state,
    List<String> actions,
    @Nullable String treatMissingData) {
  public Alarm {
    actions = List.copyOf(actions);
  }

  /** CloudWatch alarm states. */
  public enum AlarmState {
    OK,
    ALARM,
    INSUFFICIENT_DATA
  }

  /** CloudWatch comparison operators the chain uses. */
  public enum Comparison {
    GREATER_THAN_THRESHOLD,
    GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    LESS_THAN_THRESHOLD,
    LESS_THAN_OR_EQUAL_TO_THRESHOLD;

    /** Whether {@code value} breaches {@code threshold}. */
    public boolean breaches(double value, double threshold) {
      return switch (this) {
        case GREATER_THAN_THRESHOLD -> value > threshold;
        case GREATER_THAN_OR_EQUAL_TO_THRESHOLD -> value >= threshold;
        case LESS_THAN_THRESHOLD -> value < threshold;
        case LESS_THAN_OR_EQUAL_TO_THRESHOLD -> value <= threshold;
      };
    }
  }
}
