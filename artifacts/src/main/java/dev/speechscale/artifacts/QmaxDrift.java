package dev.speechscale.artifacts;

import dev.speechscale.capacity.RungDrift;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The ladder-level drift check of a qmax artifact ({@code drift}, additive; older artifacts carry
 * none): a reference rung re-measured late in each run and compared with its first measurement.
 * Beyond a tolerance the ladder measured the machine drifting, not only the endpoint, and the plan
 * warns ({@code measurement_trust}). {@code drifted} and {@code finding} are derived from the
 * rechecks and recomputed on read.
 *
 * @param reference which rung was re-measured and why
 * @param throughputTolerancePct the throughput change, in percent of the first measurement, still
 *     counted as noise
 * @param p95TolerancePct the p95 TTFAB change, in percent, still counted as noise
 * @param rechecks every re-measurement, in the order it ran
 * @param drifted any recheck beyond tolerance (derived)
 * @param finding the figures of every recheck beyond tolerance, or {@code null} when none is
 *     (derived)
 */
public record QmaxDrift(
    String reference,
    double throughputTolerancePct,
    double p95TolerancePct,
    List<QmaxRecheck> rechecks,
    @Nullable Boolean drifted,
    @Nullable String finding) {

  public QmaxDrift {
    Objects.requireNonNull(reference, "reference");
    rechecks = rechecks == null ? List.of() : List.copyOf(rechecks);
  }

  /** The check as measured, its derived fields computed. */
  public static QmaxDrift of(
      String reference,
      double throughputTolerancePct,
      double p95TolerancePct,
      List<QmaxRecheck> rechecks) {
    return new QmaxDrift(reference, throughputTolerancePct, p95TolerancePct, rechecks, null, null)
        .withDerived();
  }

  /** The comparisons, for the planner. */
  public List<RungDrift> rungDrifts() {
    return rechecks.stream()
        .map(r -> r.toRungDrift(throughputTolerancePct, p95TolerancePct))
        .toList();
  }

  /** This check with every derived field recomputed from the rechecks. */
  public QmaxDrift withDerived() {
    List<QmaxRecheck> derived =
        rechecks.stream().map(r -> r.withDerived(throughputTolerancePct, p95TolerancePct)).toList();
    String beyond =
        rungDrifts().stream()
            .filter(RungDrift::beyond)
            .map(d -> "drift: " + d.describe())
            .collect(Collectors.joining("; "));
    return new QmaxDrift(
        reference,
        throughputTolerancePct,
        p95TolerancePct,
        derived,
        !beyond.isEmpty(),
        beyond.isEmpty() ? null : beyond);
  }
}
