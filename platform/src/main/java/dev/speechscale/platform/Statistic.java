package dev.speechscale.platform;

import org.jspecify.annotations.Nullable;

/** CloudWatch statistics the chain reads. */
public enum Statistic {
  AVERAGE,
  MAXIMUM,
  MINIMUM,
  SUM,
  SAMPLE_COUNT,
  P95;

  /** How CloudWatch spells it: {@code Average}, {@code p95}, ... */
  public String cloudWatchName() {
    return switch (this) {
      case AVERAGE -> "Average";
      case MAXIMUM -> "Maximum";
      case MINIMUM -> "Minimum";
      case SUM -> "Sum";
      case SAMPLE_COUNT -> "SampleCount";
      case P95 -> "p95";
    };
  }

  /**
   * The statistic CloudWatch spells {@code name} ({@code p95.0} is {@code p95} too); {@code null}
   * for {@code null} or one the chain does not read.
   */
  public static @Nullable Statistic ofCloudWatchName(@Nullable String name) {
    if ("p95.0".equals(name)) {
      return P95;
    }
    for (Statistic s : values()) {
      if (s.cloudWatchName().equals(name)) {
        return s;
      }
    }
    return null;
  }
}
