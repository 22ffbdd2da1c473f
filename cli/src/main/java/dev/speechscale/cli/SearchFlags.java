package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.simulator.PolicySearch;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tts-bench search}'s flags: the artifacts and the traffic are {@code simulate}'s own
 * mixins, the rest is the search's. Option help: {@code flags.properties}.
 */
final class SearchFlags {
  @Mixin SimulateArtifactOptions files = new SimulateArtifactOptions();

  @Mixin SimulateTrafficOptions traffic = new SimulateTrafficOptions();

  @Option(names = Flags.GOAL_SLO, defaultValue = "99.9", paramLabel = "PERCENT")
  double goalSlo;

  @Option(names = Flags.GOAL_SHED, defaultValue = "0.1", paramLabel = "PERCENT")
  double goalShed;

  @Mixin SeedOption seed;

  @Option(names = Flags.HELD_OUT_SEED, paramLabel = "N")
  @Nullable Long heldOutSeed;

  @Option(names = Flags.HELD_OUT_SHIFT, defaultValue = "30m", paramLabel = "DURATION")
  Duration heldOutShift;

  @Option(names = Flags.SCREEN_SCALE, defaultValue = "auto", paramLabel = "K|auto")
  String screenScale;

  @Option(names = Flags.FINALISTS, defaultValue = "3", paramLabel = "N")
  int finalists;

  @Option(
      names = Flags.FAMILIES,
      defaultValue = "all",
      paramLabel = "all|planned",
      converter = FamiliesChoice.class)
  PolicySearch.Families families;

  static final class FamiliesChoice extends Choice<PolicySearch.Families> {
    FamiliesChoice() {
      super(
          Map.of("all", PolicySearch.Families.ALL, "planned", PolicySearch.Families.PLANNED),
          Flags.FAMILIES
              + " (%s) must be 'all' (the plan's family and InvocationsPerInstance tracking) or"
              + " 'planned' (the plan's family only)");
    }
  }

  @Mixin MetricDelayOption metricDelay;

  @Mixin MaxRequestAgeOption maxRequestAge;

  @Mixin PricePerHourOption pricePerHour;

  @Option(names = Flags.ALSO_TYPE, paramLabel = "QMAX=USD[,TTOTAL]")
  java.util.List<String> alsoType = new java.util.ArrayList<>();

  @Option(names = Flags.THREADS, paramLabel = "N")
  @Nullable Integer threads;

  @Mixin OutputOption output;
}
