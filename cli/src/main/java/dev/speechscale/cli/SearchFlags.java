package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tts-bench search}'s flags: the artifacts and the traffic are {@code simulate}'s own
 * mixins, the rest is the search's.
 */
final class SearchFlags {
  @Mixin SimulateArtifactOptions files = new SimulateArtifactOptions();

  @Mixin SimulateTrafficOptions traffic = new SimulateTrafficOptions();

  @Option(
      names = Flags.GOAL_SLO,
      defaultValue = "99.9",
      paramLabel = "PERCENT",
      description = "fewest arrivals within the TTFAB SLO, in %% (default ${DEFAULT-VALUE})")
  double goalSlo;

  @Option(
      names = Flags.GOAL_SHED,
      defaultValue = "0.1",
      paramLabel = "PERCENT",
      description = "most arrivals shed, in %% (default ${DEFAULT-VALUE})")
  double goalShed;

  @Option(
      names = Flags.SEED,
      defaultValue = "1",
      paramLabel = "N",
      description = "the fitted day's arrivals and service times (default ${DEFAULT-VALUE})")
  long seed;

  @Option(
      names = Flags.HELD_OUT_SEED,
      paramLabel = "N",
      description = "the held-out day's seed (default: " + Flags.SEED + " + 1)")
  @Nullable Long heldOutSeed;

  @Option(
      names = Flags.HELD_OUT_SHIFT,
      defaultValue = "30m",
      paramLabel = "DURATION",
      description =
          "the held-out day runs the trace's shape this much later, wrapping (whole minutes;"
              + " default ${DEFAULT-VALUE})")
  Duration heldOutShift;

  @Option(
      names = Flags.SCREEN_SCALE,
      defaultValue = "auto",
      paramLabel = "K|auto",
      description =
          "screen each candidate on a fleet K times smaller over traffic K times lighter"
              + " (1: in full; auto: the largest K that leaves the busiest minute at least"
              + " 25 instances; default ${DEFAULT-VALUE})")
  String screenScale;

  @Option(
      names = Flags.FINALISTS,
      defaultValue = "3",
      paramLabel = "N",
      description =
          "at most N candidates confirmed in full on the fitted trace: those within the measured"
              + " screening error of the goal, cheapest first, up to the cheapest that meets it"
              + " screened (default ${DEFAULT-VALUE})")
  int finalists;

  @Option(
      names = Flags.METRIC_DELAY,
      paramLabel = "DURATION",
      description = SimulateFleetOptions.METRIC_DELAY_DESCRIPTION)
  @Nullable Duration metricDelay;

  @Option(
      names = Flags.MAX_REQUEST_AGE,
      defaultValue = SimulateFleetOptions.DEFAULT_MAX_REQUEST_AGE,
      paramLabel = "DURATION",
      description = "the server's MAX_REQUEST_AGE_S deadline (default ${DEFAULT-VALUE})")
  Duration maxRequestAge;

  @Option(
      names = Flags.PRICE_PER_HOUR,
      paramLabel = "USD",
      description =
          "the --qmax type's price per instance-hour; with it the summary and the artifact state"
              + " each type's held-out cost (needed with "
              + Flags.ALSO_TYPE
              + ")")
  @Nullable Double pricePerHour;

  @Option(
      names = Flags.ALSO_TYPE,
      paramLabel = "QMAX=USD[,TTOTAL]",
      description =
          "another instance type: its qmax artifact (same model) and its price per instance-hour,"
              + " optionally its own ttotal artifact (else the --ttotal ones); its plan is"
              + " re-derived from its ladder with the --plan's inputs, it is searched with the"
              + " same goal, trace and seeds, and the type whose recommendation meets the goal"
              + " at the lowest held-out cost is chosen; repeat per type")
  java.util.List<String> alsoType = new java.util.ArrayList<>();

  @Option(
      names = Flags.THREADS,
      paramLabel = "N",
      description =
          "simulations at once; the result does not depend on it (default: the processors)")
  @Nullable Integer threads;

  @Option(
      names = Flags.OUTPUT,
      paramLabel = "FILE",
      description = "where to write the searched plan (default plan-search-<model>.json)")
  @Nullable Path output;
}
