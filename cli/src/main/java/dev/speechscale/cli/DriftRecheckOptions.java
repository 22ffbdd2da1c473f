package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.LoadgenException;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code qmax}'s drift re-check options, read as a {@link DriftRecheck} by {@link #recheck}. */
final class DriftRecheckOptions {
  @Option(
      names = Flags.DRIFT_CHECK,
      defaultValue = "end",
      paramLabel = "end|bisection|off",
      description =
          "re-measure the reference rung (each run's highest coarse rung that meets the SLO) at"
              + " the end of the run, also between bisection steps, or never, and compare it with"
              + " its first measurement (default ${DEFAULT-VALUE})")
  String driftCheck;

  @Option(
      names = Flags.DRIFT_TOLERANCE,
      defaultValue = "10",
      paramLabel = "PERCENT",
      description =
          "throughput change of the re-measured reference rung, in percent of its first"
              + " measurement, still counted as noise; beyond it the artifact carries a drift"
              + " finding and the plan warns (default ${DEFAULT-VALUE})")
  String driftTolerance;

  @Option(
      names = Flags.DRIFT_P95_TOLERANCE,
      defaultValue = "15",
      paramLabel = "PERCENT",
      description = "the same for its p95 TTFAB (default ${DEFAULT-VALUE})")
  String driftP95Tolerance;

  @Option(
      names = Flags.DRIFT_REWARM_BUDGET,
      defaultValue = "5m",
      paramLabel = "DURATION",
      description =
          "when the end-of-run re-check drifts beyond tolerance and the host-speed probe says the"
              + " machine did not move, the extra time the run may spend warming the instance up"
              + " (at the reference rung, until its windows agree) and measuring its rungs again;"
              + " 0s only flags the drift (default ${DEFAULT-VALUE})")
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
