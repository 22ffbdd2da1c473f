package dev.speechscale.scaling;

import java.util.Objects;
import java.util.function.DoublePredicate;

/**
 * One CloudWatch metric alarm's evaluation over its evaluation range, with gaps, as the CloudWatch
 * User Guide, "Configuring how CloudWatch alarms treat missing data", section "How alarm state is
 * evaluated when data is missing"
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html)
 * states it:
 *
 * <ul>
 *   <li>CloudWatch reads more periods than Evaluation Periods (N), the <em>evaluation range</em>.
 *       With at least N real datapoints in it, the newest N real ones are evaluated and the
 *       treatment of missing data is not used.
 *   <li>With fewer, the missing ones are filled in by the treatment, as few as possible (N minus
 *       the real ones), and every real datapoint in the range is evaluated with them: {@code
 *       breaching} fills breaching points, {@code notBreaching} non-breaching ones; at least
 *       Datapoints to Alarm (M) breaching → ALARM, else OK.
 *   <li>{@code missing} and {@code ignore} fill nothing: M breaching real points → ALARM; a
 *       non-breaching real point → OK; every point missing → INSUFFICIENT_DATA ({@code missing}) or
 *       the current state ({@code ignore}).
 *   <li>"Avoiding premature transitions to alarm state": when every real point breaches but there
 *       are fewer than M, {@code missing} goes to ALARM once the oldest breaching point is at least
 *       M periods old (the guide's {@code - - X - -} with M = 3), and otherwise keeps its state
 *       ("does not go immediately into ALARM", {@code - - - X -}); {@code ignore} keeps its state
 *       in both (the guide's "Retain current state").
 * </ul>
 *
 * <p>The guide's tables (N = 3, M = 3 and M = 2) are {@code AlarmEvaluationTest}'s cases.
 *
 * <p>The evaluation range's length "depends on the length of the alarm period and whether it is
 * based on a metric with standard resolution or high resolution"; the guide gives one figure, 5 for
 * N = 3, and no rule. {@link #range} is therefore N + 2, the guide's example, for every period:
 * ours, not AWS's, for any N or period the guide does not show.
 */
public final class AlarmEvaluation {
  private AlarmEvaluation() {}

  /** Periods past Evaluation Periods that are read (the guide's example: 5 for N = 3). */
  public static final int RANGE_EXTRA_PERIODS = 2;

  /** The evaluation range for {@code evaluationPeriods} periods. */
  public static int range(int evaluationPeriods) {
    return evaluationPeriods + RANGE_EXTRA_PERIODS;
  }

  /**
   * The alarm's state after this evaluation.
   *
   * @param range the evaluation range's values, oldest first, NaN for a missing datapoint
   * @param evaluationPeriods N
   * @param datapointsToAlarm M (1 ≤ M ≤ N)
   * @param breaches whether a real value breaches the threshold
   * @param treat the alarm's TreatMissingData
   * @param current the alarm's state before this evaluation
   * @return the new state
   */
  public static AlarmState evaluate(
      double[] range,
      int evaluationPeriods,
      int datapointsToAlarm,
      DoublePredicate breaches,
      TreatMissingData treat,
      AlarmState current) {
    Objects.requireNonNull(treat, "treat");
    Objects.requireNonNull(current, "current");
    if (evaluationPeriods < 1
        || datapointsToAlarm < 1
        || datapointsToAlarm > evaluationPeriods
        || range.length < evaluationPeriods) {
      throw new IllegalArgumentException(
          "an alarm needs 1 <= datapoints to alarm ("
              + datapointsToAlarm
              + ") <= evaluation periods ("
              + evaluationPeriods
              + ") <= evaluation range ("
              + range.length
              + ")");
    }
    int real = 0;
    int breaching = 0;
    boolean anyOk = false;
    int oldestBreachAge = 0; // 1 = the newest period of the range
    for (int i = range.length - 1; i >= 0 && real < evaluationPeriods; i--) {
      double v = range[i];
      if (Double.isNaN(v)) {
        continue;
      }
      real++;
      if (breaches.test(v)) {
        breaching++;
        oldestBreachAge = range.length - i;
      } else {
        anyOk = true;
      }
    }
    if (real == evaluationPeriods) {
      return breaching >= datapointsToAlarm ? AlarmState.ALARM : AlarmState.OK;
    }
    int filled = evaluationPeriods - real;
    return switch (treat) {
      case BREACHING -> breaching + filled >= datapointsToAlarm ? AlarmState.ALARM : AlarmState.OK;
      case NOT_BREACHING -> breaching >= datapointsToAlarm ? AlarmState.ALARM : AlarmState.OK;
      case MISSING, IGNORE -> {
        if (breaching >= datapointsToAlarm) {
          yield AlarmState.ALARM;
        }
        if (anyOk) {
          yield AlarmState.OK;
        }
        if (real == 0) {
          yield treat == TreatMissingData.MISSING ? AlarmState.INSUFFICIENT_DATA : current;
        }
        // every real point breaches, fewer than M of them: the premature-alarm rule
        yield treat == TreatMissingData.MISSING && oldestBreachAge >= datapointsToAlarm
            ? AlarmState.ALARM
            : current;
      }
    };
  }
}
