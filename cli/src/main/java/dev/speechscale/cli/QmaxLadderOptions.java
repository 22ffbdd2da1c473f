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

/**
 * {@code qmax}'s ladder: its rungs, how long each is held and measured, and how often it runs.
 * Option help: {@code flags.properties}.
 */
final class QmaxLadderOptions {
  @Option(
      names = {Flags.RUNGS, Flags.CONCURRENCY},
      split = ",",
      paramLabel = "N,N,...")
  @Nullable List<Integer> rungs;

  @Option(names = Flags.HOLD, paramLabel = "DURATION", converter = PublishedSeconds.class)
  @Nullable Duration hold;

  @Option(
      names = {Flags.WINDOW, Flags.MEASURE_WINDOW},
      paramLabel = "DURATION",
      converter = PublishedSeconds.class)
  @Nullable Duration window;

  @Option(
      names = {Flags.SETTLE, Flags.SETTLE_BETWEEN_STEPS},
      paramLabel = "DURATION",
      converter = PublishedSeconds.class)
  @Nullable Duration settle;

  @Mixin StabilityOptions stability;

  @Mixin WarmupOption warmup;

  @Mixin RunsOption runs;

  @Option(names = Flags.NO_REFINE)
  boolean noRefine;

  /** The ladder these options ask for, the platform's {@code defaults} where they say nothing. */
  LadderSpec spec(CommandSpec spec, LadderDefaults defaults, double sloMs, DriftRecheck drift) {
    Duration effectiveHold = hold != null ? hold : defaults.hold();
    Duration effectiveWindow = window != null ? window : defaults.window();
    return LadderSpec.of(
            rungs != null ? rungs : defaults.rungs(),
            effectiveHold,
            effectiveWindow,
            runs.value,
            sloMs)
        .withRefine(!noRefine)
        .withWarmup(warmup.value)
        .withSettle(settle != null ? settle : defaults.settle())
        .withDrift(drift)
        .withStability(stability.rule(spec, effectiveHold, effectiveWindow));
  }
}
