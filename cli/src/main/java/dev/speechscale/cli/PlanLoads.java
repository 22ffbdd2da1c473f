package dev.speechscale.cli;

import dev.speechscale.capacity.Load;
import dev.speechscale.chain.Flags;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code plan}'s peak and trough flags read as loads: a rate or a number of streams, non-negative,
 * the trough in the peak's unit and not above it. A bad value is a usage error (exit 2).
 */
final class PlanLoads {
  private PlanLoads() {}

  /** The peak: {@code --peak-rps} when given, else {@code --peak-streams}. */
  static Load peak(CommandSpec spec, @Nullable Double rps, @Nullable Double streams) {
    if (rps != null) {
      return rate(spec, Flags.PEAK_RPS, rps);
    }
    if (streams != null) {
      return streams(spec, Flags.PEAK_STREAMS, streams);
    }
    throw Cli.usage(spec, "give the peak load: --peak-rps N or --peak-streams N");
  }

  /** The trough, checked against the peak: same unit, not above it. */
  static Load trough(
      CommandSpec spec, Load peakLoad, @Nullable Double rps, @Nullable Double streams) {
    Load troughLoad;
    if (rps != null) {
      troughLoad = rate(spec, Flags.TROUGH_RPS, rps);
    } else if (streams != null) {
      troughLoad = streams(spec, Flags.TROUGH_STREAMS, streams);
    } else {
      throw Cli.usage(spec, "give the trough load: --trough-rps N or --trough-streams N");
    }
    if (troughLoad.getClass() != peakLoad.getClass()) {
      throw Cli.usage(
          spec,
          "state trough and peak in the same unit: --trough-rps with"
              + " "
              + Flags.PEAK_RPS
              + ", --trough-streams with --peak-streams");
    }
    if (troughLoad.amount() > peakLoad.amount()) {
      throw Cli.usage(
          spec,
          "trough ("
              + troughLoad.describe()
              + ") is above peak ("
              + peakLoad.describe()
              + "); swap them or lower the trough");
    }
    return troughLoad;
  }

  private static Load rate(CommandSpec spec, String option, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw Cli.usage(spec, option + " (" + value + ") must be a non-negative number");
    }
    return new Load.RequestRate(value);
  }

  private static Load streams(CommandSpec spec, String option, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw Cli.usage(spec, option + " (" + value + ") must be a non-negative number");
    }
    return new Load.Streams(value);
  }
}
