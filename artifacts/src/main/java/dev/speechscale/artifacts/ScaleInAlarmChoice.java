package dev.speechscale.artifacts;

import java.util.Arrays;
import java.util.stream.Collectors;

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
public enum ScaleInAlarmChoice {
  AVERAGE_60S("average_60s", "Average", 60),
  MAXIMUM_10S("maximum_10s", "Maximum", 10);

  /**
   * What a plan writes unless its simulation finds it fights (then a config deploys the plan's).
   */
  public static final ScaleInAlarmChoice DEFAULT = MAXIMUM_10S;

  private final String label;
  private final String statistic;
  private final int periodS;

  ScaleInAlarmChoice(String label, String statistic, int periodS) {
    this.label = label;
    this.statistic = statistic;
    this.periodS = periodS;
  }

  /** e.g. {@code maximum_10s}. */
  public String label() {
    return label;
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
    for (ScaleInAlarmChoice c : values()) {
      if (c.label.equals(label)) {
        return c;
      }
    }
    return null;
  }

  /** The choice labelled {@code label}, or {@link #DEFAULT} for {@code null}. */
  public static ScaleInAlarmChoice ofLabel(@org.jspecify.annotations.Nullable String label) {
    if (label == null) {
      return DEFAULT;
    }
    ScaleInAlarmChoice c = ofLabelOrNull(label);
    if (c == null) {
      throw new ArtifactException(
          "scale_in_alarm '"
              + label
              + "' is not one of "
              + labels()
              + " (default "
              + DEFAULT
              + ")");
    }
    return c;
  }

  /** Every label, comma-separated. */
  public static String labels() {
    return Arrays.stream(values()).map(c -> c.label).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return label;
  }
}
