package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param drifted any recheck beyond tolerance (derived), leaving out those a rewarm superseded
 * @param finding the figures of every recheck beyond tolerance, or {@code null} when none is
 *     (derived), leaving out those a rewarm superseded
 * @param rewarms what each re-check beyond tolerance led to ({@link QmaxRewarm}; additive, empty in
 *     older artifacts and when no re-check fired)
 */
public record QmaxDrift(
    String reference,
    double throughputTolerancePct,
    double p95TolerancePct,
    List<QmaxRecheck> rechecks,
    @Nullable Boolean drifted,
    @Nullable String finding,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<QmaxRewarm> rewarms) {

  public QmaxDrift {
    Objects.requireNonNull(reference, "reference");
    rechecks = rechecks == null ? List.of() : List.copyOf(rechecks);
    rewarms = rewarms == null ? List.of() : List.copyOf(rewarms);
  }

  /** A check without rewarms, as recorded before they existed. */
  public QmaxDrift(
      String reference,
      double throughputTolerancePct,
      double p95TolerancePct,
      List<QmaxRecheck> rechecks,
      @Nullable Boolean drifted,
      @Nullable String finding) {
    this(reference, throughputTolerancePct, p95TolerancePct, rechecks, drifted, finding, List.of());
  }

  /** The check as measured, its derived fields computed. */
  public static QmaxDrift of(
      String reference,
      double throughputTolerancePct,
      double p95TolerancePct,
      List<QmaxRecheck> rechecks) {
    return of(reference, throughputTolerancePct, p95TolerancePct, rechecks, List.of());
  }

  /**
   * The check as measured with what its re-checks beyond tolerance led to, derived fields computed.
   */
  public static QmaxDrift of(
      String reference,
      double throughputTolerancePct,
      double p95TolerancePct,
      List<QmaxRecheck> rechecks,
      List<QmaxRewarm> rewarms) {
    return new QmaxDrift(
            reference, throughputTolerancePct, p95TolerancePct, rechecks, null, null, rewarms)
        .withDerived();
  }

  /**
   * The comparisons that still describe the steps, for the planner: every re-check but those whose
   * run was measured again after a rewarm ({@link QmaxRewarm#supersedesRecheck()}).
   */
  public List<RungDrift> rungDrifts() {
    return current().stream()
        .map(r -> r.toRungDrift(throughputTolerancePct, p95TolerancePct))
        .toList();
  }

  /** The re-checks no rewarm superseded. */
  public List<QmaxRecheck> current() {
    return rechecks.stream().filter(r -> !superseded(r)).toList();
  }

  /**
   * Whether a rewarm measured {@code r}'s run again, so {@code r} no longer describes its steps.
   */
  public boolean superseded(QmaxRecheck r) {
    return rewarms.stream()
        .anyMatch(w ->
            w.supersedesRecheck()
                && w.runIndex() == r.runIndex()
                && w.recheckStepIndex() == r.stepIndex());
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
        beyond.isEmpty() ? null : beyond,
        rewarms);
  }
}
