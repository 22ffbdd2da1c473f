package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

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
 * <p>{@link #stop()} (e.g. from a SIGINT hook) ends the rung in progress — its in-flight requests
 * finish, it is discarded — and returns what was measured so far.
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
    return new LadderResult(spec, walk.reports, walk.notes, stopped);
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
    final long startNanos = hooks.clock().nanoTime();
    int bisectGuess;
    int runIndex;
    int stepIndex;
    int coarseDone;
    int bisectDone;
    int consecutiveSaturated;
    boolean truncated;

    Walk(LadderSpec spec) {
      this.spec = spec;
      this.bisectGuess = spec.refine() ? log2Ceil(maxGap(spec.rungs())) : 0;
    }

    void run(int run) {
      runIndex = run;
      stepIndex = 0;
      coarseDone = 0;
      bisectDone = 0;
      consecutiveSaturated = 0;
      truncated = false;
      for (int n : spec.rungs()) {
        RungReport r = measure(n, RungReport.Phase.COARSE);
        coarseDone++;
        if (r == null || truncated) {
          return;
        }
        if (spec.stopAfterBreach() && r.breachesSlo(spec.sloMs())) {
          note("run " + (run + 1) + ": N=" + n + " breaches the SLO; coarse pass ends there");
          break;
        }
      }
      if (spec.refine()) {
        bisect();
      }
    }

    /** Measures one rung, records it, and tracks consecutive saturation; null when stopped. */
    RungReport measure(int n, RungReport.Phase phase) {
      if (stopped) {
        return null;
      }
      if (!reports.isEmpty() && spec.settle().isPositive()) {
        try {
          Thread.sleep(spec.settle());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          stop();
          return null;
        }
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

    void bisect() {
      if (truncated || stopped) {
        return;
      }
      List<RungReport> mine = reports.stream().filter(r -> r.runIndex() == runIndex).toList();
      if (mine.isEmpty()) {
        return;
      }
      int lo = new LadderResult(spec, mine, List.of(), false).ladder().qMax();
      final int pass = lo;
      OptionalInt firstBreach =
          mine.stream()
              .filter(r -> r.breachesSlo(spec.sloMs()) && r.concurrency() > pass)
              .mapToInt(RungReport::concurrency)
              .min();
      String run = "run " + (runIndex + 1);
      if (lo == 0) {
        note(run + ": no rung met the SLO; nothing to bisect");
        bisectGuess = 0;
        return;
      }
      if (firstBreach.isEmpty()) {
        note(
            run
                + ": Q_max "
                + lo
                + " is not bracketed (no usable rung above it breached the SLO); nothing to"
                + " bisect — add a higher rung to bracket it");
        bisectGuess = 0;
        return;
      }
      int hi = firstBreach.getAsInt();
      bisectGuess = log2Ceil(hi - lo);
      while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        RungReport r = measure(mid, RungReport.Phase.BISECT);
        bisectDone++;
        if (r == null || truncated) {
          return;
        }
        if (r.meetsSlo(spec.sloMs())) {
          lo = mid;
        } else if (r.breachesSlo(spec.sloMs())) {
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
          return;
        }
      }
      note(run + ": bisection closed Q_max at " + lo + " (N=" + hi + " breaches the SLO)");
    }

    LadderListener.Progress progress(int n, RungReport.Phase phase) {
      int remainingThisRun =
          (spec.rungs().size() - coarseDone) + Math.max(0, bisectGuess - bisectDone);
      int later = (spec.runs() - runIndex - 1) * (spec.rungs().size() + bisectGuess);
      int remaining = Math.max(0, remainingThisRun + later);
      Duration perRung =
          reports.isEmpty()
              ? spec.hold()
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
          reports.size(),
          reports.size() + remaining,
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
