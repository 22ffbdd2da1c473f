package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.LadderDefaults;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code qmax}'s ladder: its rungs, how long each is held and measured, and how often it runs. */
final class QmaxLadderOptions {
  @Option(
      names = {Flags.RUNGS, Flags.CONCURRENCY},
      split = ",",
      paramLabel = "N,N,...",
      description =
          "coarse concurrencies (default: the platform's ladder, local 1,2,4,8,16,32; aws"
              + " 1,5,10,20,30,40,50,60)")
  @Nullable List<Integer> rungs;

  @Option(
      names = Flags.HOLD,
      paramLabel = "DURATION",
      converter = PublishedSeconds.class,
      description =
          "how long each rung is held; its first measured window ends there, later ones follow"
              + " while they disagree, up to --max-hold (default: local 30s, aws 240s)")
  @Nullable Duration hold;

  @Option(
      names = {Flags.WINDOW, Flags.MEASURE_WINDOW},
      paramLabel = "DURATION",
      converter = PublishedSeconds.class,
      description =
          "one measurement window; the first is the trailing part of the hold, before it is"
              + " warm-up (default: local 20s, aws 60s)")
  @Nullable Duration window;

  @Option(
      names = {Flags.SETTLE, Flags.SETTLE_BETWEEN_STEPS},
      paramLabel = "DURATION",
      converter = PublishedSeconds.class,
      description =
          "idle time between rungs so the previous queue drains (default: local 0s, aws 30s)")
  @Nullable Duration settle;

  @Mixin StabilityOptions stability;

  @Option(
      names = Flags.WARMUP,
      defaultValue = "20s",
      paramLabel = "DURATION",
      description =
          "load sent at N=4 before the first rung and not measured, so the ladder does not start"
              + " on a cold server; 0s for none (default ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = Flags.RUNS, defaultValue = "1", description = "passes of the ladder (default 1)")
  int runs;

  @Option(
      names = Flags.NO_REFINE,
      description = "skip the bisection (Q_max exact to the rung spacing)")
  boolean noRefine;

  /** The ladder these options ask for, the platform's {@code defaults} where they say nothing. */
  LadderSpec spec(CommandSpec spec, LadderDefaults defaults, double sloMs, DriftRecheck drift) {
    Duration effectiveHold = hold != null ? hold : defaults.hold();
    Duration effectiveWindow = window != null ? window : defaults.window();
    return LadderSpec.of(
            rungs != null ? rungs : defaults.rungs(), effectiveHold, effectiveWindow, runs, sloMs)
        .withRefine(!noRefine)
        .withWarmup(warmup)
        .withSettle(settle != null ? settle : defaults.settle())
        .withDrift(drift)
        .withStability(stability.rule(spec, effectiveHold, effectiveWindow));
  }
}
