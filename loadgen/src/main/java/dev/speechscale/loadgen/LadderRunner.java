package dev.speechscale.loadgen;

import dev.speechscale.artifacts.QmaxRewarm;
import dev.speechscale.capacity.RungDrift;
import dev.speechscale.platform.Invoker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Walks a closed-loop ladder: per run, the coarse rungs in ascending order, then (unless {@link
 * LadderSpec#refine()} is off) a bisection between the run's last passing rung and the first usable
 * rung above it that breaches the SLO, until the two are adjacent — so Q_max is exact to ±1, not to
 * the rung spacing. {@link LadderSpec#saturatedToStop()} consecutive saturated rungs end a run
 * (coarse or bisection). Which rung passes, Q_max and bracketing are read through {@link
 * dev.speechscale.capacity.Ladder}, the planner's own arithmetic.
 *
 * <p>A bisection rung that is unusable (not settled, client-bound, ...) stops that run's bisection
 * rather than guessing a direction; the artifact then shows Q_max unrefined.
 *
 * <p>Unless {@link LadderSpec#drift()} is off, each run ends by measuring its reference rung again
 * (its highest coarse rung that met the SLO; {@link DriftRecheck} says why that one), and with
 * {@link DriftRecheck.Mode#BISECTION} also between bisection steps. A re-check is not a step: it
 * takes a step index (its requests are logged under it) but is kept apart in {@link
 * LadderResult#rechecks()}, compared with the first measurement, and never moves Q_max.
 *
 * <p>{@link #stop()} (e.g. from a SIGINT hook) ends the rung in progress — its in-flight requests
 * finish, it is discarded — and returns what was measured so far.
 *
 * <p>Longer than the house's 300 lines because the coarse pass, the bisection and the re-checks
 * share one walk's state (step indexes, saturation, the bisection's bounds, the reference rung);
 * split, each part would take all of it as arguments.
 */
public final class LadderRunner {
  private final RungMeasurer measurer;
  private final LadderHooks hooks;
  private volatile boolean stopped;

  /** A runner that sends real load through {@code invoker}. */
  public LadderRunner(Invoker invoker, TextPool texts, LadderHooks hooks) {
    this(new DriverMeasurer(invoker, texts, hooks), hooks);
  }

  LadderRunner(RungMeasurer measurer, LadderHooks hooks) {
    this.measurer = measurer;
    this.hooks = hooks;
  }

  /**
   * Runs the warm-up (if any), then the ladder; closes the workers' connections before returning
   * (not the invoker).
   */
  public LadderResult run(LadderSpec spec) {
    Walk walk = new Walk(spec);
    try {
      if (spec.warmup().isPositive() && !stopped) {
        walk.note(
            "warm-up: N="
                + spec.warmupConcurrency()
                + " for "
                + ProgressPrinter.format(spec.warmup())
                + ", not measured, so the first rungs do not see a cold server");
        if (!measurer.warmUp(spec.warmupConcurrency(), spec.warmup()) || stopped) {
          walk.note("stopped during the warm-up; nothing was measured");
        }
      }
      for (int run = 0; run < spec.runs() && !stopped; run++) {
        walk.run(run);
      }
    } finally {
      measurer.close();
    }
    return new LadderResult(spec, walk.reports, walk.notes, stopped, walk.rechecks, walk.rewarms);
  }

  /** Ends the ladder at the rung in progress; safe from any thread. */
  public void stop() {
    stopped = true;
    measurer.stop();
  }

  /** One ladder's mutable state; owned by the thread in {@link #run}. */
  private final class Walk {
    final LadderSpec spec;
    final List<RungReport> reports = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    final List<ReferenceRecheck> rechecks = new ArrayList<>();
    final List<QmaxRewarm> rewarms = new ArrayList<>();

    /** When a rewarm's budget ends (monotonic nanos); no bound outside a rewarm. */
    long budgetEndsNanos = Long.MAX_VALUE;

    boolean outOfBudget;
    final long startNanos = hooks.clock().nanoTime();
    int bisectGuess;
    int runIndex;
    int stepIndex;
    int coarseDone;
    int bisectDone;
    int rechecksDone;
    int consecutiveSaturated;
    boolean truncated;
    @Nullable RungReport reference;

    Walk(LadderSpec spec) {
      this.spec = spec;
      this.bisectGuess = spec.refine() ? log2Ceil(maxGap(spec.rungs())) : 0;
    }

    void run(int run) {
      runIndex = run;
      stepIndex = 0;
      rechecksDone = 0;
      if (!pass(run)) {
        return;
      }
      if (spec.drift().enabled()) {
        if (reference == null) {
          note(
              "run "
                  + (run + 1)
                  + ": no coarse rung met the SLO, so there is no reference rung to re-measure"
                  + " for drift");
        } else {
          ReferenceRecheck fired = recheck("at the end of run " + (run + 1), reference);
          if (fired != null && beyond(fired) && spec.drift().rewarmBudget().isPositive()) {
            rewarm(run, fired);
          }
        }
      }
    }

    /** One pass of the run's coarse rungs and bisection; false when stopped. */
    boolean pass(int run) {
      coarseDone = 0;
      bisectDone = 0;
      consecutiveSaturated = 0;
      truncated = false;
      reference = null;
      for (int n : spec.rungs()) {
        RungReport r = measure(n, RungReport.Phase.COARSE);
        coarseDone++;
        if (r == null) {
          return false;
        }
        if (truncated) {
          break;
        }
        if (spec.stopAfterBreach() && r.breachesSlo(spec.sloMs())) {
          note("run " + (run + 1) + ": N=" + n + " breaches the SLO; coarse pass ends there");
          break;
        }
      }
      reference = spec.drift().enabled() ? reference() : null;
      return !spec.refine() || bisect();
    }

    boolean beyond(ReferenceRecheck r) {
      DriftRecheck d = spec.drift();
      return r.toArtifact().toRungDrift(d.throughputTolerancePct(), d.p95TolerancePct()).beyond();
    }

    /** This run's steps so far. */
    List<RungReport> mine() {
      return reports.stream().filter(r -> r.runIndex() == runIndex).toList();
    }

    int qMax(List<RungReport> steps) {
      return steps.isEmpty()
          ? 0
          : new LadderResult(spec, steps, List.of(), false, List.of()).ladder().qMax();
    }

    /**
     * After an end-of-run re-check beyond tolerance: asks the host probe whether the machine moved,
     * and when it did not, holds load at the reference rung until its windows agree, then measures
     * the run again and re-checks once ({@link DriftRewarm}); records what happened.
     */
    void rewarm(int run, ReferenceRecheck fired) {
      long began = hooks.clock().nanoTime();
      Rewarming w = new Rewarming(fired, began);
      budgetEndsNanos = began + spec.drift().rewarmBudget().toNanos();
      outOfBudget = false;
      List<RungReport> firstPass = mine();
      Duration remeasure = spec.settle().plus(fired.again().wallTime());
      for (RungReport r : firstPass) {
        remeasure = remeasure.plus(spec.settle()).plus(r.wallTime());
      }
      LadderHooks.HostSpeedChange probe = hooks.hostSpeed();
      RungReport first = fired.first();
      RungReport again = fired.again();
      w.hostChangePct =
          probe == null
              ? null
              : probe.changePct(
                  first.windowStart(), first.windowEnd(), again.windowStart(), again.windowEnd());
      DriftRewarm.Decision decision = DriftRewarm.onDrift(spec, w.hostChangePct, remeasure);
      DriftRewarm.Rewarm plan;
      switch (decision) {
        case DriftRewarm.Flag f -> {
          w.done(f.outcome(), f.reason());
          return;
        }
        case DriftRewarm.Rewarm r -> plan = r;
      }
      note("run " + (run + 1) + ": " + plan.reason());
      int n = fired.first().concurrency();
      if (stopped || !settle()) {
        w.done(QmaxRewarm.STOPPED, "stopped before the warm-up windows");
        return;
      }
      hooks.listener().rungStarted(progress(n, RungReport.Phase.RECHECK));
      RungReport warm =
          measurer.measure(
              DriftRewarm.warmupSpec(spec, plan), runIndex, stepIndex, n, RungReport.Phase.RECHECK);
      if (warm == null || stopped) {
        w.done(QmaxRewarm.STOPPED, "stopped during the warm-up windows");
        return;
      }
      stepIndex++;
      hooks.listener().rungFinished(progress(n, RungReport.Phase.RECHECK), warm);
      w.windows = warm.stability() == null ? 1 : warm.stability().windows().size();
      w.stable = warm.stability() == null || warm.stability().stable();
      w.warmupS = warm.wallTime().toMillis() / 1000.0;
      DriftRewarm.Flag unsettled = DriftRewarm.afterWarmup(w.stable, w.windows, warm.wallTime());
      if (unsettled != null) {
        w.done(unsettled.outcome(), unsettled.reason());
        return;
      }
      int before = qMax(firstPass);
      reports.removeIf(r -> r.runIndex() == runIndex);
      boolean measured = pass(run);
      ReferenceRecheck second =
          !measured || reference == null
              ? null
              : recheck(
                  "at the end of run " + (run + 1) + ", measured again after a warm-up", reference);
      if (second == null) {
        int cut = mine().size();
        reports.removeIf(r -> r.runIndex() == runIndex);
        reports.addAll(firstPass);
        reference = fired.first();
        if (outOfBudget) {
          w.done(
              QmaxRewarm.BUDGET_SPENT,
              "the rewarm budget of "
                  + ProgressPrinter.format(spec.drift().rewarmBudget())
                  + " ran out after "
                  + cut
                  + " rungs measured again (they took longer than the first time); the first"
                  + " measurement is kept and the drift stays flagged");
        } else {
          w.done(
              stopped ? QmaxRewarm.STOPPED : QmaxRewarm.STILL_DRIFTING,
              stopped
                  ? "stopped while measuring the run again; the first measurement is kept"
                  : "measured again, no coarse rung met the SLO, so nothing could be re-checked;"
                      + " the first measurement is kept and the drift stays flagged");
        }
        return;
      }
      w.remeasured = firstPass.stream().map(RungReport::concurrency).toList();
      w.qMaxBefore = before;
      DriftRewarm.Flag out = DriftRewarm.afterRemeasure(beyond(second), before, qMax(mine()));
      w.done(out.outcome(), out.reason());
    }

    /** What one rewarm did so far; {@link #done} records it. */
    final class Rewarming {
      final ReferenceRecheck fired;
      final long beganNanos;
      @Nullable Double hostChangePct;
      int windows;
      @Nullable Boolean stable;
      double warmupS;
      List<Integer> remeasured = List.of();
      @Nullable Integer qMaxBefore;

      Rewarming(ReferenceRecheck fired, long beganNanos) {
        this.fired = fired;
        this.beganNanos = beganNanos;
      }

      void done(String outcome, String reason) {
        budgetEndsNanos = Long.MAX_VALUE;
        DriftRecheck d = spec.drift();
        double extraS = (hooks.clock().nanoTime() - beganNanos) / 1e9;
        rewarms.add(
            new QmaxRewarm(
                runIndex,
                fired.again().stepIndex(),
                outcome,
                reason,
                hostChangePct,
                d.hostTolerancePct(),
                d.rewarmBudget().toMillis() / 1000.0,
                windows,
                windows == 0 ? null : stable,
                warmupS,
                remeasured,
                qMaxBefore,
                Math.max(0, extraS)));
        note(
            String.format(
                java.util.Locale.ROOT,
                "run %d: drift rewarm %s in %.1f s: %s",
                runIndex + 1,
                outcome,
                Math.max(0, extraS),
                reason));
      }
    }

    /**
     * This run's highest coarse rung that met the SLO (the bisection's lower end), or null; a rung
     * whose p95 rounds to 0 ms cannot anchor a relative change and is no reference.
     */
    @Nullable RungReport reference() {
      List<RungReport> mine = reports.stream().filter(r -> r.runIndex() == runIndex).toList();
      if (mine.isEmpty()) {
        return null;
      }
      int pass = new LadderResult(spec, mine, List.of(), false, List.of()).ladder().qMax();
      return mine.stream()
          .filter(r -> r.concurrency() == pass && r.meetsSlo(spec.sloMs()))
          .filter(r ->
              r.stats().achievedRps() > 0
                  && Objects.requireNonNull(r.stats().ttfabP95Ms(), "a rung that met the SLO") > 0)
          .findFirst()
          .orElse(null);
    }

    /** Waits the settle time before any rung but the first; false when interrupted (stopped). */
    boolean settle() {
      if (!reports.isEmpty() && spec.settle().isPositive()) {
        try {
          Thread.sleep(spec.settle());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          stop();
          return false;
        }
      }
      return true;
    }

    /**
     * Measures the reference rung again and records the comparison; null when stopped. Not a step,
     * and its saturation does not count towards stopping the run.
     */
    @Nullable ReferenceRecheck recheck(String when, RungReport reference) {
      if (stopped || overBudget(reference.concurrency()) || !settle()) {
        return null;
      }
      int n = reference.concurrency();
      hooks.listener().rungStarted(progress(n, RungReport.Phase.RECHECK));
      RungReport again = measurer.measure(spec, runIndex, stepIndex, n, RungReport.Phase.RECHECK);
      if (again == null || stopped) {
        note(
            "run "
                + (runIndex + 1)
                + ": stopped during the drift re-check of N="
                + n
                + "; nothing compared");
        return null;
      }
      stepIndex++;
      rechecksDone++;
      hooks.listener().rungFinished(progress(n, RungReport.Phase.RECHECK), again);
      ReferenceRecheck r = new ReferenceRecheck(when, reference, again);
      rechecks.add(r);
      DriftRecheck d = spec.drift();
      RungDrift drift = r.toArtifact().toRungDrift(d.throughputTolerancePct(), d.p95TolerancePct());
      note(
          "run "
              + (runIndex + 1)
              + ": drift "
              + (drift.beyond()
                  ? "BEYOND tolerance, so Q_max measured the machine as well as the endpoint: "
                  : "within tolerance: ")
              + drift.describe());
      return r;
    }

    /**
     * Whether a rung at {@code n}, held to its longest, would end past a rewarm's budget: then it
     * is not started, and the rewarm keeps the first measurement ({@link QmaxRewarm#BUDGET_SPENT}).
     */
    boolean overBudget(int n) {
      long need = spec.maximumHold().plus(spec.settle()).toNanos();
      if (budgetEndsNanos - hooks.clock().nanoTime() >= need) {
        return false;
      }
      outOfBudget = true;
      note(
          "run "
              + (runIndex + 1)
              + ": N="
              + n
              + " held to its longest would end past the drift rewarm budget; not measured");
      return true;
    }

    /** Measures one rung, records it, and tracks consecutive saturation; null when stopped. */
    @Nullable RungReport measure(int n, RungReport.Phase phase) {
      if (stopped || overBudget(n) || !settle()) {
        return null;
      }
      LadderListener.Progress progress = progress(n, phase);
      hooks.listener().rungStarted(progress);
      RungReport r = measurer.measure(spec, runIndex, stepIndex, n, phase);
      if (r == null || stopped) {
        note("run " + (runIndex + 1) + ": stopped during N=" + n + "; that rung is discarded");
        return null;
      }
      stepIndex++;
      reports.add(r);
      hooks.listener().rungFinished(progress(n, phase), r);
      consecutiveSaturated = r.saturated() ? consecutiveSaturated + 1 : 0;
      if (consecutiveSaturated >= spec.saturatedToStop()) {
        truncated = true;
        note(
            "run "
                + (runIndex + 1)
                + ": "
                + consecutiveSaturated
                + " consecutive saturated rungs, stopping the run at N="
                + n
                + "; against an unbounded queue nothing should refuse work, so higher rungs"
                + " would only measure whatever sheds it");
      }
      return r;
    }

    /** Bisects this run's gap; false when the ladder was stopped. */
    boolean bisect() {
      if (truncated || stopped) {
        return !stopped;
      }
      List<RungReport> mine = reports.stream().filter(r -> r.runIndex() == runIndex).toList();
      if (mine.isEmpty()) {
        return true;
      }
      int usableQMax = new LadderResult(spec, mine, List.of(), false, List.of()).ladder().qMax();
      OptionalInt firstBreach =
          mine.stream()
              .filter(r -> r.breachesSlo(spec.sloMs()) && r.concurrency() > usableQMax)
              .mapToInt(RungReport::concurrency)
              .min();
      int lo = lowerEnd(mine, usableQMax, firstBreach);
      boolean loUsable = lo == usableQMax;
      String run = "run " + (runIndex + 1);
      if (lo == 0) {
        note(run + ": no rung met the SLO; nothing to bisect");
        bisectGuess = 0;
        return true;
      }
      if (firstBreach.isEmpty()) {
        note(
            run
                + ": Q_max "
                + lo
                + " is not bracketed (no usable rung above it breached the SLO); nothing to"
                + " bisect — add a higher rung to bracket it");
        bisectGuess = 0;
        return true;
      }
      int hi = firstBreach.getAsInt();
      bisectGuess = log2Ceil(hi - lo);
      while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        RungReport r = measure(mid, RungReport.Phase.BISECT);
        bisectDone++;
        if (r == null) {
          return false;
        }
        if (truncated) {
          return true;
        }
        RungReport.SloSide side = r.sloSideForBisection(spec.sloMs());
        if (side != RungReport.SloSide.UNKNOWN && !r.usable()) {
          note(unsettledNote(run, mid, side));
        }
        if (side == RungReport.SloSide.MEETS) {
          lo = mid;
          loUsable = r.usable();
        } else if (side == RungReport.SloSide.BREACHES) {
          hi = mid;
        } else {
          note(
              run
                  + ": bisection stopped at N="
                  + mid
                  + " ("
                  + r.verdict().reason()
                  + "); Q_max stays refined only to ["
                  + lo
                  + ", "
                  + hi
                  + ")");
          return true;
        }
        if (hi - lo > 1
            && spec.drift().mode() == DriftRecheck.Mode.BISECTION
            && reference != null
            && recheck(
                    "between bisection steps "
                        + bisectDone
                        + " and "
                        + (bisectDone + 1)
                        + " of run "
                        + (runIndex + 1),
                    reference)
                == null) {
          return false;
        }
      }
      note(
          loUsable
              ? run + ": bisection closed Q_max at " + lo + " (N=" + hi + " breaches the SLO)"
              : run
                  + ": bisection closed the bracket at ["
                  + lo
                  + ", "
                  + hi
                  + ") but N="
                  + lo
                  + " did not settle, so Q_max counts the usable rungs below it");
      return true;
    }

    /**
     * The bisection's lower end: the usable Q_max, raised to the largest coarse rung below the
     * first breach that did not settle but met the SLO in every window (see {@link
     * RungReport#sloSideForBisection}), so one unsettled coarse rung does not leave the gap above
     * the usable Q_max unexplored.
     */
    private int lowerEnd(List<RungReport> mine, int usableQMax, OptionalInt firstBreach) {
      if (usableQMax == 0 || firstBreach.isEmpty()) {
        return usableQMax;
      }
      int hi = firstBreach.getAsInt();
      int lo = usableQMax;
      for (RungReport r : mine) {
        if (!r.usable()
            && r.concurrency() > lo
            && r.concurrency() < hi
            && r.sloSideForBisection(spec.sloMs()) == RungReport.SloSide.MEETS) {
          note(unsettledNote("run " + (runIndex + 1), r.concurrency(), RungReport.SloSide.MEETS));
          lo = r.concurrency();
        }
      }
      return lo;
    }

    private String unsettledNote(String run, int n, RungReport.SloSide side) {
      return run
          + ": N="
          + n
          + " did not settle, but every one of its windows "
          + (side == RungReport.SloSide.MEETS ? "met" : "breached")
          + " the SLO: the bisection continues "
          + (side == RungReport.SloSide.MEETS ? "above" : "below")
          + " it; the rung stays out of Q_max";
    }

    LadderListener.Progress progress(int n, RungReport.Phase phase) {
      int rechecksPlanned = spec.drift().rechecksPerRun(bisectGuess);
      int remainingThisRun =
          (spec.rungs().size() - coarseDone)
              + Math.max(0, bisectGuess - bisectDone)
              + Math.max(0, rechecksPlanned - rechecksDone);
      int later =
          (spec.runs() - runIndex - 1) * (spec.rungs().size() + bisectGuess + rechecksPlanned);
      int remaining = Math.max(0, remainingThisRun + later);
      Duration perRung =
          reports.isEmpty()
              ? spec.minimumHold()
              : reports.stream()
                  .map(RungReport::wallTime)
                  .reduce(Duration.ZERO, Duration::plus)
                  .dividedBy(reports.size());
      Duration eta = perRung.plus(spec.settle()).multipliedBy(remaining);
      return new LadderListener.Progress(
          runIndex,
          spec.runs(),
          stepIndex,
          n,
          phase,
          reports.size() + rechecks.size(),
          reports.size() + rechecks.size() + remaining,
          Duration.ofNanos(hooks.clock().nanoTime() - startNanos),
          eta);
    }

    void note(String message) {
      notes.add(message);
      hooks.listener().note(message);
    }
  }

  private static int maxGap(List<Integer> rungs) {
    int gap = 1;
    for (int i = 1; i < rungs.size(); i++) {
      gap = Math.max(gap, rungs.get(i) - rungs.get(i - 1));
    }
    return gap;
  }

  /** Rungs a bisection over a gap of {@code gap} measures: ⌈log2 gap⌉. */
  static int log2Ceil(int gap) {
    return gap <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(gap - 1);
  }
}
