package dev.speechscale.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** {@code tts-bench search}'s flags, in one place. */
final class SearchFlags {
  @Option(names = "--qmax", required = true, paramLabel = "FILE", description = "qmax artifact")
  Path qmax;

  @Option(
      names = "--ttotal",
      required = true,
      paramLabel = "FILE",
      description = "ttotal artifact (start-up delays); give it once per ttotal run")
  List<Path> ttotal;

  @Option(
      names = "--plan",
      required = true,
      paramLabel = "FILE",
      description = "plan artifact: the start of the search, and the rivals' numbers")
  Path plan;

  // picocli fills a multiplicity-1 group before call(), or refuses the command line (exit 2)
  @SuppressWarnings("NullAway.Init")
  @ArgGroup(exclusive = true, multiplicity = "1")
  Traffic traffic;

  static final class Traffic {
    @Option(
        names = "--trace",
        paramLabel = "FILE",
        description = "CSV: header time_s,rps (rate intervals) or arrival_s (arrival times)")
    @Nullable Path trace;

    @Option(
        names = "--pattern",
        paramLabel = "SHAPE",
        description = "built-in traffic: ${COMPLETION-CANDIDATES}")
    SimulateCommand.@Nullable Pattern pattern;
  }

  @Option(
      names = "--peak-rps",
      paramLabel = "N",
      description = "pattern peak (default: the plan's)")
  @Nullable Double peakRps;

  @Option(
      names = "--trough-rps",
      paramLabel = "N",
      description = "pattern trough (default: the plan's, else 0)")
  @Nullable Double troughRps;

  @Option(
      names = "--duration",
      defaultValue = "24h",
      paramLabel = "DURATION",
      description = "pattern length, whole minutes (default ${DEFAULT-VALUE})")
  Duration duration;

  @Option(
      names = "--goal-slo",
      defaultValue = "99.9",
      paramLabel = "PERCENT",
      description = "fewest arrivals within the TTFAB SLO, in % (default ${DEFAULT-VALUE})")
  double goalSlo;

  @Option(
      names = "--goal-shed",
      defaultValue = "0.1",
      paramLabel = "PERCENT",
      description = "most arrivals shed, in % (default ${DEFAULT-VALUE})")
  double goalShed;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "N",
      description = "the fitted day's arrivals and service times (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = "--held-out-seed",
      paramLabel = "N",
      description = "the held-out day's seed (default: --seed + 1)")
  @Nullable Long heldOutSeed;

  @Option(
      names = "--held-out-shift",
      defaultValue = "30m",
      paramLabel = "DURATION",
      description =
          "the held-out day runs the trace's shape this much later, wrapping (whole minutes;"
              + " default ${DEFAULT-VALUE})")
  Duration heldOutShift;

  @Option(
      names = "--screen-scale",
      defaultValue = "auto",
      paramLabel = "K|auto",
      description =
          "screen each candidate on a fleet K times smaller over traffic K times lighter"
              + " (1: in full; auto: the largest K that leaves the busiest minute at least"
              + " 25 instances; default ${DEFAULT-VALUE})")
  String screenScale;

  @Option(
      names = "--finalists",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "the cheapest screened candidates that meet the goal, confirmed in full on the fitted"
              + " trace (default ${DEFAULT-VALUE})")
  int finalists;

  @Option(
      names = "--metric-delay",
      defaultValue = "0s",
      paramLabel = "DURATION",
      description = "how late a metric period becomes readable (default ${DEFAULT-VALUE})")
  Duration metricDelay;

  @Option(
      names = "--max-request-age",
      defaultValue = SimulateCommand.DEFAULT_MAX_REQUEST_AGE,
      paramLabel = "DURATION",
      description = "the server's MAX_REQUEST_AGE_S deadline (default ${DEFAULT-VALUE})")
  Duration maxRequestAge;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description =
          "simulations at once; the result does not depend on it (default: the processors)")
  @Nullable Integer threads;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "where to write the searched plan (default plan-search-<model>.json)")
  @Nullable Path output;
}
