package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.loadgen.DriftRecheck;
import dev.speechscale.loadgen.LoadgenException;
import picocli.CommandLine.Model.CommandSpec;

/** {@code qmax}'s drift re-check flags read as a {@link DriftRecheck}. */
final class DriftFlags {
  private DriftFlags() {}

  /** The drift check the flags ask for; a malformed flag is a usage error. */
  static DriftRecheck recheck(
      CommandSpec spec, String driftCheck, String driftTolerance, String driftP95Tolerance) {
    DriftRecheck.Mode mode;
    try {
      mode = DriftRecheck.Mode.ofLabel(driftCheck);
    } catch (LoadgenException e) {
      throw Cli.usage(spec, Flags.DRIFT_CHECK + ": " + e.getMessage());
    }
    double throughput = percent(spec, Flags.DRIFT_TOLERANCE, driftTolerance);
    double p95 = percent(spec, Flags.DRIFT_P95_TOLERANCE, driftP95Tolerance);
    return new DriftRecheck(mode, throughput, p95);
  }

  /** {@code --drift-rewarm-budget}: not negative; a negative one is a usage error. */
  static java.time.Duration budget(CommandSpec spec, java.time.Duration budget) {
    if (budget.isNegative()) {
      throw Cli.usage(
          spec,
          Flags.DRIFT_REWARM_BUDGET
              + " ("
              + budget
              + ") must not be negative; 0s only flags a drift, e.g. 5m");
    }
    return budget;
  }

  /** {@code 10} or {@code 10%}: a positive, finite percentage. */
  private static double percent(CommandSpec spec, String option, String text) {
    String number = text.strip();
    if (number.endsWith("%")) {
      number = number.substring(0, number.length() - 1).strip();
    }
    double v;
    try {
      v = Double.parseDouble(number);
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v > 0) || Double.isInfinite(v)) {
      throw Cli.usage(
          spec,
          option
              + " ("
              + text
              + ") must be a positive percentage of the first measurement, e.g. 10 or 10%");
    }
    return v;
  }
}
