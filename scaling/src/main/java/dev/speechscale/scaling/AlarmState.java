package dev.speechscale.scaling;

/** CloudWatch alarm states. */
public enum AlarmState {
  /** The last datapoints do not all breach. */
  OK,
  /** Every one of the last datapoints breaches. */
  ALARM,
  /** At least one of the last periods has no (published) datapoint. */
  INSUFFICIENT_DATA
}
