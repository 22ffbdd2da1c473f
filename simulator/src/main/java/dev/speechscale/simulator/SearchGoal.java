package dev.speechscale.simulator;

import java.util.Locale;

/**
 * What a policy must achieve over a day.
 *
 * @param minAttainment fewest arrivals served within the TTFAB SLO, 0..1 (0.999 = 99.9 %)
 * @param maxShed most arrivals shed, 0..1 (0.001 = 0.1 %)
 */
public record SearchGoal(double minAttainment, double maxShed) {
  public SearchGoal {
    if (!(minAttainment > 0 && minAttainment <= 1)) {
      throw new SimulatorException(
          "--goal-slo ("
              + minAttainment * 100
              + " %) must be above 0 % and at most 100 %, e.g. 99.9");
    }
    if (!(maxShed >= 0 && maxShed < 1)) {
      throw new SimulatorException(
          "--goal-shed (" + maxShed * 100 + " %) must be at least 0 % and below 100 %, e.g. 0.1");
    }
  }

  /** Whether a day with this attainment and shed meets the goal. */
  public boolean meets(double attainment, double shed) {
    return attainment >= minAttainment && shed <= maxShed;
  }

  /** As printed: {@code >= 99.9 % within the SLO, <= 0.1 % shed}. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        ">= %s %% within the SLO, <= %s %% shed",
        plain(minAttainment * 100),
        plain(maxShed * 100));
  }

  static String plain(double v) {
    return java.math.BigDecimal.valueOf(v)
        .round(new java.math.MathContext(6))
        .stripTrailingZeros()
        .toPlainString();
  }
}
