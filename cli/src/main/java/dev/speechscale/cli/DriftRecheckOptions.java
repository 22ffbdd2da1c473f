package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.LoadgenException;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code qmax}'s drift re-check options, read as a {@link DriftRecheck} by {@link #recheck}. Option
 * help: {@code flags.properties}.
 */
final class DriftRecheckOptions {
  @Option(names = Flags.DRIFT_CHECK, defaultValue = "end", paramLabel = "end|bisection|off")
  String driftCheck;

  @Option(names = Flags.DRIFT_TOLERANCE, defaultValue = "10", paramLabel = "PERCENT")
  String driftTolerance;

  @Option(names = Flags.DRIFT_P95_TOLERANCE, defaultValue = "15", paramLabel = "PERCENT")
  String driftP95Tolerance;

  @Option(names = Flags.DRIFT_REWARM_BUDGET, defaultValue = "5m", paramLabel = "DURATION")
  Duration driftRewarmBudget;

  /** The drift check the options ask for; a malformed one is a usage error. */
  DriftRecheck recheck(CommandSpec spec) {
    DriftRecheck.Mode mode;
    try {
      mode = DriftRecheck.Mode.ofLabel(driftCheck);
    } catch (LoadgenException e) {
      throw Cli.usage(spec, Flags.DRIFT_CHECK + ": " + e.getMessage());
    }
    double throughput = percent(spec, Flags.DRIFT_TOLERANCE, driftTolerance);
    double p95 = percent(spec, Flags.DRIFT_P95_TOLERANCE, driftP95Tolerance);
    if (driftRewarmBudget.isNegative()) {
      throw Cli.usage(
          spec,
          Flags.DRIFT_REWARM_BUDGET
              + " ("
              + driftRewarmBudget
              + ") must not be negative; 0s only flags a drift, e.g. 5m");
    }
    return new DriftRecheck(mode, throughput, p95).withRewarmBudget(driftRewarmBudget);
  }

  /** {@code 10} or {@code 10%}: a positive, finite percentage. */
  private static double percent(CommandSpec spec, String option, String text) {
    return Percent.parse(
        spec,
        option,
        text,
        v -> v > 0 && !Double.isInfinite(v),
        "a positive percentage of the first measurement, e.g. 10 or 10%");
  }
}
