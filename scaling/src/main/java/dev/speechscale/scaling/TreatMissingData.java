package dev.speechscale.scaling;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * How a CloudWatch alarm treats a period with no datapoint ({@code TreatMissingData} of
 * PutMetricAlarm and DescribeAlarms), as the CloudWatch User Guide, "Configuring how CloudWatch
 * alarms treat missing data"
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarms-and-missing-data.html)
 * defines it; {@link AlarmEvaluation} applies it.
 *
 * <p>What SpeechScale deploys:
 *
 * <ul>
 *   <li>The step scale-in alarm: {@link #SCALE_IN_DEPLOYED}, {@code notBreaching}. A scale-in
 *       removes capacity, so a period nobody measured must never count as a quiet one: the same
 *       reading Application Auto Scaling documents for its own target tracking alarms ("It does not
 *       perform scale in because it does not interpret insufficient data as low utilization",
 *       Application Auto Scaling User Guide, "How target tracking scaling for Application Auto
 *       Scaling works", Considerations). {@code breaching} (deployed before) scales an endpoint in
 *       whenever its metric is absent: at start-up before the first datapoint, and whenever no
 *       instance is in service; {@code missing} lets a single low datapoint followed by a gap put
 *       the alarm in ALARM (the guide's "premature alarm state"). The cost: if SageMaker published
 *       nothing for an idle variant, an idle endpoint would not scale in (AWS documents a step
 *       policy on INSUFFICIENT_DATA for that; we do not deploy one).
 *   <li>The target tracking alarms Application Auto Scaling creates: {@link #MISSING}, CloudWatch's
 *       default when an alarm states none ("If this parameter is omitted, the default behavior of
 *       missing is used", PutMetricAlarm); Application Auto Scaling documents no other setting for
 *       them, and its documented behaviour (no scaling at all on insufficient data) is what {@code
 *       missing} gives: all periods missing → INSUFFICIENT_DATA, which invokes no policy.
 * </ul>
 */
public enum TreatMissingData {
  /** "If all data points in the alarm evaluation range are missing, INSUFFICIENT_DATA." */
  MISSING("missing"),
  /** Missing data points are "good", within the threshold. */
  NOT_BREACHING("notBreaching"),
  /** Missing data points are "bad", breaching the threshold. */
  BREACHING("breaching"),
  /** The current alarm state is maintained. */
  IGNORE("ignore");

  /** What the plan's step scale-in alarm deploys (see the class comment for why). */
  public static final TreatMissingData SCALE_IN_DEPLOYED = NOT_BREACHING;

  /** What Application Auto Scaling's target tracking alarms carry (CloudWatch's default). */
  public static final TreatMissingData TARGET_TRACKING = MISSING;

  private final String awsName;

  TreatMissingData(String awsName) {
    this.awsName = awsName;
  }

  /** The value as CloudWatch spells it: {@code missing}, {@code notBreaching}, ... */
  public String awsName() {
    return awsName;
  }

  /**
   * The treatment CloudWatch spells {@code name}; an absent one ({@code null} or blank) is {@link
   * #MISSING}, CloudWatch's default.
   */
  public static TreatMissingData ofAws(@Nullable String name) {
    if (name == null || name.isBlank()) {
      return MISSING;
    }
    for (TreatMissingData t : values()) {
      if (t.awsName.equals(name.strip())) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "TreatMissingData '"
            + name
            + "' is not one of "
            + Arrays.stream(values())
                .map(TreatMissingData::awsName)
                .collect(Collectors.joining(", "))
            + " (CloudWatch's spelling)");
  }

  @Override
  public String toString() {
    return awsName;
  }
}
