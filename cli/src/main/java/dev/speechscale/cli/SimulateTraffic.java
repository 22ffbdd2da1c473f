package dev.speechscale.cli;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.SimulatorException;
import dev.speechscale.simulator.Traffic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/** What {@code simulate} feeds the fleet: the offered traffic and the warm history before t = 0. */
final class SimulateTraffic {
  private SimulateTraffic() {}

  /**
   * The offered traffic: the {@code --trace} file, or the {@code --pattern} shaped by {@code
   * --peak-rps}/{@code --trough-rps}, which default to the plan's.
   */
  static Traffic of(
      SimulateCommand.TrafficChoice traffic,
      @Nullable Double peakRps,
      @Nullable Double troughRps,
      Duration duration,
      PlanArtifact p,
      Path plan,
      CommandSpec spec) {
    if (traffic.trace != null) {
      Path file = traffic.trace;
      if (!Files.isReadable(file)) {
        throw new CliException(Flags.TRACE + " " + file + " cannot be read; check the path");
      }
      // the trace is named by its file name: the artifact and report carry no machine paths
      return Traffic.csv(String.valueOf(file.getFileName()), () -> lines(file));
    }
    PlanArtifact.Chosen chosen = p.inputs() == null ? null : p.inputs().chosen();
    Double peak = peakRps != null ? peakRps : chosen == null ? null : chosen.peakRps();
    if (peak == null) {
      throw Cli.usage(
          spec,
          "give --peak-rps N: the plan " + plan + " states no peak request rate to default to");
    }
    double trough =
        troughRps != null
            ? troughRps
            : chosen == null || chosen.troughRps() == null ? 0 : chosen.troughRps();
    SimulateCommand.Pattern pattern = traffic.pattern;
    if (pattern == null) { // the group takes one of the two: picocli refuses neither
      throw Cli.usage(spec, "give --trace FILE or --pattern SHAPE");
    }
    return switch (pattern) {
      case diurnal -> Traffic.diurnal(peak, trough, duration);
      case step -> Traffic.step(peak, trough, duration);
      case ramp -> Traffic.ramp(peak, trough, duration);
      case spike -> Traffic.spike(peak, trough, duration);
    };
  }

  private static Stream<String> lines(Path file) {
    try {
      return Files.lines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** {@code --pre-roll}: {@code window}, or whole seconds ({@code 0s}: none). */
  static FleetSimulator.PreRoll preRoll(String preRoll, CommandSpec spec) {
    if (preRoll.strip().equalsIgnoreCase("window")) {
      return new FleetSimulator.PreRoll.Window();
    }
    Duration d;
    try {
      d = Durations.parse(preRoll);
    } catch (RuntimeException e) {
      throw Cli.usage(
          spec,
          Flags.PRE_ROLL
              + " ("
              + preRoll
              + ") must be 'window' or a duration in whole seconds, e.g. 180s or 0s");
    }
    try {
      return d.isZero() ? new FleetSimulator.PreRoll.None() : new FleetSimulator.PreRoll.Fixed(d);
    } catch (SimulatorException e) {
      throw Cli.usage(spec, Cli.message(e));
    }
  }
}
