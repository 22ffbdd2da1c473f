package dev.speechscale.cli;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.simulator.Traffic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The traffic {@code simulate} offers the fleet: a {@code --trace} file, or a {@code --pattern}
 * shaped by {@code --peak-rps}/{@code --trough-rps}, which default to the plan's. Option help:
 * {@code flags.properties}.
 */
final class SimulateTrafficOptions {
  // picocli fills a multiplicity-1 group before call(), or refuses the command line (exit 2)
  @SuppressWarnings("NullAway.Init")
  @ArgGroup(exclusive = true, multiplicity = "1")
  TrafficChoice traffic;

  static final class TrafficChoice {
    @Option(names = Flags.TRACE, paramLabel = "FILE")
    @Nullable Path trace;

    @Option(names = Flags.PATTERN, paramLabel = "SHAPE")
    @Nullable Pattern pattern;
  }

  enum Pattern {
    diurnal,
    step,
    ramp,
    spike
  }

  @Option(names = Flags.PEAK_RPS, paramLabel = "N")
  @Nullable Double peakRps;

  @Option(names = Flags.TROUGH_RPS, paramLabel = "N")
  @Nullable Double troughRps;

  @Option(names = Flags.DURATION, defaultValue = "24h", paramLabel = "DURATION")
  Duration duration;

  /** Refuses a rate given for a trace, which has its own. */
  void validate(CommandSpec spec) {
    if (traffic.trace != null && (peakRps != null || troughRps != null)) {
      throw Cli.usage(
          spec,
          Flags.PEAK_RPS + " and --trough-rps shape a --pattern; a --trace has its own rates");
    }
  }

  /** {@code trace} or {@code pattern}, as the artifact names the source. */
  String source() {
    return traffic.trace != null ? "trace" : "pattern";
  }

  /**
   * The offered traffic; the pattern's rates default to those of {@code p}, read from {@code plan}.
   */
  Traffic offered(PlanArtifact p, Path plan, CommandSpec spec) {
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
    Pattern pattern = traffic.pattern;
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

  /** The options as the artifact's parameters record them. */
  void record(Map<String, Object> m) {
    m.put("trace", traffic.trace == null ? null : traffic.trace.toString());
    m.put("pattern", traffic.pattern == null ? null : traffic.pattern.name());
    m.put("peak_rps", peakRps);
    m.put("trough_rps", troughRps);
    m.put("duration", duration.toString());
  }
}
