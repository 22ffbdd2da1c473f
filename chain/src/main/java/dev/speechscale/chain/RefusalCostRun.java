package dev.speechscale.chain;

import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.loadgen.ClosedLoopDriver;
import dev.speechscale.loadgen.OpenLoopDriver;
import dev.speechscale.loadgen.OpenLoopResult;
import dev.speechscale.loadgen.OpenLoopSpec;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.loadgen.TextPool;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.simulator.RefusalCost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code validate --live}'s refusal cost: what refusing takes from one saturated instance's
 * serving. {@code live_rejections} has just run closed loop below {@code queue_max_depth} (the
 * baseline: no refusals) and above it (clients that find the gate full retry at once: a refusal
 * storm); this adds an open-loop phase at {@value #OPEN_LOAD_FACTOR} × the baseline's throughput
 * (what a replay's surge does: arrivals above what the instance serves, the rest refused at the
 * gate; 2× so it refuses about what it serves, 6–14 a second on the local fleet, the replays' range
 * and enough to see) and the baseline again, so a machine that moved between the phases shows as
 * the spread of the two baselines instead of as a cost. Each phase is measured on its trailing
 * {@value #WINDOW_SHARE} (the first quarter fills the queue).
 *
 * <p>The figure taken is the open-loop phase's when it resolves (τ more than twice its uncertainty
 * {@code (spread / 2) / r}): that is the regime of a surge, where the simulator spends it.
 * Otherwise it is the refusing phase whose τ that spread moves least (the storm, which refuses a
 * thousand a second), and the record says the open loop did not resolve. On the quiet machine the
 * two regimes disagree by 10–40× per refusal (0.3–0.4 ms in a storm, 9–14 ms open loop), so the
 * storm's figure is a floor, not the surge's cost.
 *
 * <p>Independent of {@code replay} on purpose: replay is what the simulator is judged against, so
 * the simulator's refusal cost must not be fitted to it.
 */
final class RefusalCostRun {
  /** The open-loop phase's arrival rate per unit of baseline throughput. */
  static final double OPEN_LOAD_FACTOR = 2.0;

  /** The share of each phase that is measured: its trailing part. */
  static final double WINDOW_SHARE = 0.75;

  private static final long OPEN_SEED = 13L;

  private RefusalCostRun() {}

  /**
   * Runs the open-loop phase and the second baseline, then derives τ.
   *
   * @param below the closed-loop phase below the bound ({@code live_rejections}' first)
   * @param above the closed-loop phase above it ({@code live_rejections}' second)
   * @param listener sees every request the two added phases complete (validate's timeline)
   */
  static ValidateArtifact.RefusalCost measure(
      Invoker invoker,
      NanoClock nanos,
      TextPool texts,
      int queueMaxDepth,
      Duration phase,
      RungRecording below,
      RungRecording above,
      Consumer<String> progress,
      RequestListener listener) {
    long windowNanos = (long) (phase.toNanos() * WINDOW_SHARE);
    ValidateArtifact.LoadPhase before = closed("closed_below", below, windowNanos);
    ValidateArtifact.LoadPhase storm = closed("closed_above", above, windowNanos);
    double rate = Math.max(1, OPEN_LOAD_FACTOR * before.servedRps());
    progress.accept(
        String.format(
            Locale.ROOT,
            "live: refusal cost: open loop at %.1f req/s (%.1f x the %.2f req/s served below"
                + " queue_max_depth), then %d concurrent again",
            rate,
            OPEN_LOAD_FACTOR,
            before.servedRps(),
            below.concurrency()));
    ValidateArtifact.LoadPhase open =
        open(invoker, nanos, texts, rate, queueMaxDepth, phase, listener);
    RungRecording again;
    try (ClosedLoopDriver driver = new ClosedLoopDriver(invoker, texts, nanos, listener)) {
      again = driver.run(0, 0, below.concurrency(), phase);
    }
    ValidateArtifact.LoadPhase after = closed("closed_below_again", again, windowNanos);
    return derive(queueMaxDepth, windowNanos / 1e9, before, after, List.of(storm, open));
  }

  /** τ per refusing phase against the mean of the two baselines; pure. */
  static ValidateArtifact.RefusalCost derive(
      int queueMaxDepth,
      double windowS,
      ValidateArtifact.LoadPhase before,
      ValidateArtifact.LoadPhase after,
      List<ValidateArtifact.LoadPhase> refusingPhases) {
    double x0 = (before.servedRps() + after.servedRps()) / 2;
    double spread = x0 > 0 ? 100 * Math.abs(before.servedRps() - after.servedRps()) / x0 : 0;
    List<ValidateArtifact.Refusing> refusing = new ArrayList<>();
    for (ValidateArtifact.LoadPhase p : refusingPhases) {
      if (x0 > 0 && p.refusedRps() > 0) {
        RefusalCost.Estimate e = RefusalCost.estimate(x0, p.servedRps(), p.refusedRps());
        refusing.add(
            new ValidateArtifact.Refusing(
                p,
                e.secondsPerRefusal(),
                e.servedRequestsPerRefusal(),
                Double.isFinite(e.hyperbolicCSeconds()) ? e.hyperbolicCSeconds() : null,
                spread / 100 / 2 / p.refusedRps()));
      }
    }
    ValidateArtifact.Refusing open = openLoop(refusing);
    ValidateArtifact.Refusing chosen = resolves(open) ? open : leastMoved(refusing);
    String from = chosenBecause(chosen, open, spread);
    return new ValidateArtifact.RefusalCost(
        1,
        queueMaxDepth,
        windowS,
        before,
        after,
        x0,
        spread,
        refusing,
        chosen == null ? null : chosen.secondsPerRefusal(),
        from);
  }

  /** The open-loop phase among the refusing ones, or null. */
  private static ValidateArtifact.@Nullable Refusing openLoop(
      List<ValidateArtifact.Refusing> refusing) {
    return refusing.stream()
        .filter(r -> r.phase().loadModel().equals(RequestEvent.LoadModel.OPEN_LOOP.label()))
        .findFirst()
        .orElse(null);
  }

  /** Whether the phase's τ stands clear of its uncertainty: more than twice it, and positive. */
  static boolean resolves(ValidateArtifact.@Nullable Refusing r) {
    return r != null
        && r.secondsPerRefusal() > 0
        && r.secondsPerRefusal() > 2 * r.uncertaintySeconds();
  }

  private static ValidateArtifact.@Nullable Refusing leastMoved(
      List<ValidateArtifact.Refusing> refusing) {
    return refusing.stream()
        .min(Comparator.comparingDouble(ValidateArtifact.Refusing::uncertaintySeconds))
        .orElse(null);
  }

  /**
   * Why {@code chosen}: the open-loop phase when it resolves (a surge refuses open-loop arrivals at
   * a few a second, the regime the simulator spends τ in; a closed-loop storm's thousands a second
   * cost 10–40 times less each on this machine, measurements/simulator-calibration.md); else the
   * refusing phase the baselines' spread moves least, saying the open loop did not resolve.
   */
  private static String chosenBecause(
      ValidateArtifact.@Nullable Refusing chosen,
      ValidateArtifact.@Nullable Refusing open,
      double spreadPct) {
    if (chosen == null) {
      return "no phase refused anything (or nothing was served below the bound): no figure";
    }
    if (chosen == open) {
      return String.format(
          Locale.ROOT,
          "%s: the open-loop phase (a surge's regime) resolves, %.4g +- %.4g ms at %.1f"
              + " refusals/s",
          chosen.phase().name(),
          chosen.secondsPerRefusal() * 1000,
          chosen.uncertaintySeconds() * 1000,
          chosen.phase().refusedRps());
    }
    String unresolved =
        open == null
            ? ""
            : String.format(
                Locale.ROOT,
                "the open-loop phase does not resolve (%.4g +- %.4g ms); ",
                open.secondsPerRefusal() * 1000,
                open.uncertaintySeconds() * 1000);
    return String.format(
        Locale.ROOT,
        "%s: %sthe refusing phase the baselines' spread (%.1f %%) moves least, +-%.4g ms at %.1f"
            + " refusals/s",
        chosen.phase().name(),
        unresolved,
        spreadPct,
        chosen.uncertaintySeconds() * 1000,
        chosen.phase().refusedRps());
  }

  /** One progress line: the baselines, each refusing phase's rates and τ, the figure taken. */
  static String summary(ValidateArtifact.RefusalCost c) {
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "live: refusal cost: served %.2f req/s below queue_max_depth (%.2f before, %.2f"
                    + " after)",
                c.baselineServedRps(),
                c.baselineBefore().servedRps(),
                c.baselineAfter().servedRps()));
    for (ValidateArtifact.Refusing r : c.refusing()) {
      b.append(
          String.format(
              Locale.ROOT,
              "; %s %.2f served while refusing %.1f/s: %.3f +- %.3f ms per refusal",
              r.phase().name(),
              r.phase().servedRps(),
              r.phase().refusedRps(),
              r.secondsPerRefusal() * 1000,
              r.uncertaintySeconds() * 1000));
    }
    b.append(
        c.secondsPerRefusal() == null
            ? "; no figure (nothing refused)"
            : String.format(
                Locale.ROOT,
                "; the simulator's figure (--validate): %.3f ms",
                c.secondsPerRefusal() * 1000));
    return b.toString();
  }

  /** A closed-loop phase's rates over the trailing window of its hold. */
  static ValidateArtifact.LoadPhase closed(String name, RungRecording r, long windowNanos) {
    long end = r.holdEndNanos();
    long start = Math.max(r.startNanos(), end - windowNanos);
    return phase(
        name, RequestEvent.LoadModel.CLOSED_LOOP, r.concurrency(), null, r.events(), start, end);
  }

  private static ValidateArtifact.LoadPhase open(
      Invoker invoker,
      NanoClock nanos,
      TextPool texts,
      double rate,
      int queueMaxDepth,
      Duration phase,
      RequestListener listener) {
    OpenLoopResult r;
    long started = nanos.nanoTime();
    try (OpenLoopDriver driver = new OpenLoopDriver(invoker, texts, nanos, listener)) {
      r =
          driver.run(
              OpenLoopSpec.constant(
                  rate,
                  phase,
                  OpenLoopSpec.Arrivals.POISSON,
                  Math.max(64, queueMaxDepth * 4),
                  OPEN_SEED));
    }
    long end = started + phase.toNanos();
    long start = end - (long) (phase.toNanos() * WINDOW_SHARE);
    return phase(
        "open_above", RequestEvent.LoadModel.OPEN_LOOP, null, rate, r.events(), start, end);
  }

  /** Rates by end time in [start, end): served (ok), refused (503), other. */
  static ValidateArtifact.LoadPhase phase(
      String name,
      RequestEvent.LoadModel model,
      @Nullable Integer concurrency,
      @Nullable Double offeredRps,
      List<RequestEvent> events,
      long startNanos,
      long endNanos) {
    long served = 0;
    long refused = 0;
    long other = 0;
    for (RequestEvent e : events) {
      if (e.completedNanos() < startNanos || e.completedNanos() >= endNanos) {
        continue;
      }
      if (e.ok()) {
        served++;
      } else if (e.outcome() == Invocation.Outcome.REJECTED && e.status() == 503) {
        refused++;
      } else {
        other++;
      }
    }
    double seconds = (endNanos - startNanos) / 1e9;
    return new ValidateArtifact.LoadPhase(
        name,
        model.label(),
        concurrency,
        offeredRps,
        served / seconds,
        refused / seconds,
        other / seconds);
  }
}
