package dev.speechscale.artifacts;

/**
 * The plan's step scale-in alarm as configs and artifacts spell it ({@code scale_in_alarm}): the
 * wire side of {@code dev.speechscale.scaling.ScaleInAlarm}, which artifacts may not import (the
 * module arrows); a test in platform-local checks the two sets agree label for label.
 *
 * <ul>
 *   <li>{@code maximum_10s} (the default): ConcurrentRequestsPerModel Maximum over 10 s periods,
 *       the tracking alarm's own; a fresh scale-out cannot leave it in ALARM.
 *   <li>{@code average_60s}: the Average over 60 s periods, what plans deployed before issue 35;
 *       after a quiet spell it undoes target tracking's first scale-out one second later.
 * </ul>
 */
public enum ScaleInAlarmChoice implements Labelled {
  AVERAGE_60S("Average", 60),
  MAXIMUM_10S("Maximum", 10);

  /**
   * What a plan writes unless its simulation finds it fights (then a config deploys the plan's).
   */
  public static final ScaleInAlarmChoice DEFAULT = MAXIMUM_10S;

  private final String statistic;
  private final int periodS;

  ScaleInAlarmChoice(String statistic, int periodS) {
    this.statistic = statistic;
    this.periodS = periodS;
  }

  /** CloudWatch's statistic, e.g. {@code Maximum}. */
  public String statistic() {
    return statistic;
  }

  /** The alarm's period, seconds. */
  public int periodS() {
    return periodS;
  }

  /** The choice labelled {@code label}; {@code null} for an unknown label. */
  public static @org.jspecify.annotations.Nullable ScaleInAlarmChoice ofLabelOrNull(String label) {
    return Labels.ofLabelOrNull(ScaleInAlarmChoice.class, label);
  }

  /** The choice labelled {@code label}, or {@link #DEFAULT} for {@code null}. */
  public static ScaleInAlarmChoice ofLabel(@org.jspecify.annotations.Nullable String label) {
    return Labels.ofLabel(ScaleInAlarmChoice.class, label, DEFAULT, "scale_in_alarm", "");
  }

  /** Every label, comma-separated. */
  public static String labels() {
    return Labels.labels(ScaleInAlarmChoice.class);
  }

  @Override
  public String toString() {
    return label();
  }
}
