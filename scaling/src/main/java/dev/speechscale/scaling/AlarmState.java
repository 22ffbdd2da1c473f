package dev.speechscale.scaling;

/** CloudWatch alarm states. */
public enum AlarmState {
  /** Fewer than Datapoints to Alarm of the evaluated datapoints breach. */
  OK,
  /** Enough of the evaluated datapoints breach ({@link AlarmEvaluation}). */
  ALARM,
  /**
   * Not enough data: with {@link TreatMissingData#MISSING}, every period of the evaluation range
   * has no (published) datapoint; also the state of an alarm never evaluated.
   */
  INSUFFICIENT_DATA
}
