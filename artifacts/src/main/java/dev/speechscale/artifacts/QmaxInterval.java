package dev.speechscale.artifacts;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The range Q_max lies in given each rung's 95 % p95 interval: {@code low} is the highest rung that
 * passes even at the top of its interval, {@code high} one below the lowest rung that fails even at
 * the bottom of its interval. A rung that was unstable or measured on a busy machine anchors
 * neither end. Derived from the steps and {@code rung_checks} on every read.
 *
 * @param low the lowest Q_max the rungs allow
 * @param high the highest; {@code null} when no rung surely fails (not bracketed)
 * @param method how it was derived
 */
public record QmaxInterval(Integer low, @Nullable Integer high, String method) {

  static final String METHOD =
      "rungs whose 95% order-statistic p95 interval lies wholly below (pass) or above (fail) the"
          + " SLO; unstable or noisy rungs anchor neither end";

  /** The interval, or empty when the artifact carries no rung checks. */
  static Optional<QmaxInterval> of(
      List<QmaxStep> steps,
      @Nullable List<RungCheck> checks,
      double sloMs,
      @Nullable Integer qMax) {
    if (checks == null || checks.isEmpty()) {
      return Optional.empty();
    }
    Map<String, RungCheck> byStep =
        checks.stream()
            .collect(
                Collectors.toMap(
                    c -> c.runIndex() + "/" + c.stepIndex(), Function.identity(), (a, b) -> a));
    int low = 0;
    Integer high = null;
    for (QmaxStep s :
        steps.stream().sorted(Comparator.comparingInt(QmaxStep::concurrency)).toList()) {
      RungCheck c =
          byStep.get(
              (s.runIndex() == null ? 0 : s.runIndex())
                  + "/"
                  + (s.stepIndex() == null ? 0 : s.stepIndex()));
      if (c == null || !s.isUsable() || !c.trustworthy() || c.p95CiLowMs() == null) {
        continue;
      }
      if (c.p95CiHighMs() != null && c.p95CiHighMs() <= sloMs && (high == null)) {
        low = Math.max(low, s.concurrency());
      }
      if (c.p95CiLowMs() > sloMs && (high == null || s.concurrency() - 1 < high)) {
        high = s.concurrency() - 1;
      }
    }
    if (qMax != null) {
      low = Math.min(low, qMax);
      high = high == null ? null : Math.max(high, qMax);
    }
    return Optional.of(new QmaxInterval(low, high, METHOD));
  }
}
