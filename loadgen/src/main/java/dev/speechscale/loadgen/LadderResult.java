package dev.speechscale.loadgen;

import dev.speechscale.artifacts.QmaxDrift;
import dev.speechscale.artifacts.QmaxRewarm;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.capacity.Ladder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a ladder measured: every rung in the order it ran, and the notes a person should read.
 *
 * @param spec the spec it ran with
 * @param reports every measured rung, in order (runs in sequence; within a run coarse rungs, then
 *     bisection rungs)
 * @param notes truncations, skipped bisections, probe failures
 * @param stopped {@link LadderRunner#stop()} ended it early (the rung in progress was discarded)
 * @param rechecks the reference rungs measured again for the drift check, in order (not steps)
 * @param rewarms what each end-of-run re-check beyond tolerance led to ({@link DriftRewarm})
 */
public record LadderResult(
    LadderSpec spec,
    List<RungReport> reports,
    List<String> notes,
    boolean stopped,
    List<ReferenceRecheck> rechecks,
    List<QmaxRewarm> rewarms) {
  public LadderResult {
    Objects.requireNonNull(spec, "spec");
    reports = List.copyOf(reports);
    notes = List.copyOf(notes);
    rechecks = List.copyOf(rechecks);
    rewarms = List.copyOf(rewarms);
  }

  /** A result no re-check led to a rewarm in. */
  public LadderResult(
      LadderSpec spec,
      List<RungReport> reports,
      List<String> notes,
      boolean stopped,
      List<ReferenceRecheck> rechecks) {
    this(spec, reports, notes, stopped, rechecks, List.of());
  }

  /** Why the reference rung is the one re-measured; recorded in the artifact. */
  static final String REFERENCE =
      "per run, the highest coarse rung that met the SLO: the lower end of the bisection, so Q_max"
          + " is that rung or one bisected above it, and measured in the coarse pass, so a"
          + " re-measurement at the end of the run spans its breaching coarse rungs and its whole"
          + " bisection";

  /**
   * The artifact's drift check: every re-check with both measurements' figures, judged by the
   * spec's tolerances; {@code null} when the spec turned the check off.
   */
  public @Nullable QmaxDrift drift() {
    DriftRecheck d = spec.drift();
    if (!d.enabled()) {
      return null;
    }
    return QmaxDrift.of(
        REFERENCE,
        d.throughputTolerancePct(),
        d.p95TolerancePct(),
        rechecks.stream().map(ReferenceRecheck::toArtifact).toList(),
        rewarms);
  }

  /** The qmax artifact's steps, {@code meets_slo} judged against the spec's SLO. */
  public List<QmaxStep> steps() {
    return reports.stream().map(r -> r.toStep(spec.sloMs())).toList();
  }

  /**
   * Q_max, bracketing and refinement as the planner computes them from the steps.
   *
   * @throws dev.speechscale.capacity.CapacityException when no rung was measured
   */
  public Ladder ladder() {
    return Ladder.of(steps().stream().map(QmaxStep::toRung).toList(), spec.sloMs());
  }

  /**
   * This result with the server's concurrency joined afterwards, for platforms whose metrics arrive
   * late: each rung's window is asked for again; rungs the source has nothing for keep what they
   * had.
   */
  public LadderResult withServerConcurrency(LadderHooks.ServerConcurrencySource source) {
    List<RungReport> joined = new ArrayList<>(reports.size());
    for (RungReport r : reports) {
      Optional<LadderHooks.ServerConcurrency> s = source.over(r.windowStart(), r.windowEnd());
      joined.add(s.isPresent() ? r.withServer(s.get()) : r);
    }
    return new LadderResult(spec, joined, notes, stopped, rechecks, rewarms);
  }
}
