package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --metric-delay DURATION}: how late a simulated metric period becomes readable; absent, the
 * platform's own ({@link MetricPhysics}). Option help: {@code flags.properties}.
 */
final class MetricDelayOption {
  @Option(names = Flags.METRIC_DELAY, paramLabel = "DURATION")
  @Nullable Duration given;

  /** The delay given, else that of the {@code platform} the artifacts were measured on. */
  Duration resolved(String platform) {
    return MetricPhysics.delay(given, platform);
  }
}
