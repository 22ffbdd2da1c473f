package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QmaxRun;
import dev.speechscale.loadgen.BisectionAllowance;
import dev.speechscale.loadgen.DryRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.platform.LadderDefaults;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code qmax --dry-run}: the schedule and a wall-clock estimate, no endpoint call. Option help:
 * {@code flags.properties}.
 */
final class QmaxDryRunOptions {
  @Option(names = Flags.DRY_RUN)
  boolean dryRun;

  @Option(
      names = {Flags.ASSUME_SERVICE_TIME, Flags.DRY_RUN_S},
      converter = PublishedSeconds.class,
      defaultValue = "100ms",
      paramLabel = "DURATION")
  Duration assumedService;

  @Option(names = Flags.ASSUME_PARALLELISM, defaultValue = "1")
  int assumedParallelism;

  /** The schedule of {@code ladder} on {@code platform} and its estimate, as printed. */
  String schedule(String platform, LadderDefaults defaults, LadderSpec ladder, boolean idleRung) {
    DryRun.ServiceAssumption assumed =
        new DryRun.ServiceAssumption(assumedService, assumedService, assumedParallelism);
    DryRun.Estimate estimate = DryRun.estimate(ladder, assumed);
    double peak =
        estimate.rows().stream().mapToDouble(DryRun.Row::throughputPerSecond).max().orElse(0);
    return QmaxSchedule.render(
        platform,
        defaults,
        ladder,
        estimate,
        BisectionAllowance.worstCase(ladder, assumed),
        idleRung ? QmaxRun.idleRungLength(ladder.window(), peak) : Duration.ZERO);
  }
}
