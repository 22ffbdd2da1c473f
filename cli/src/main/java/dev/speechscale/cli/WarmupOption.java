package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --warmup DURATION}: the load before the measured part (default 20s). Option help: {@code
 * flags.properties}, per command.
 */
final class WarmupOption {
  @Option(names = Flags.WARMUP, defaultValue = "20s", paramLabel = "DURATION")
  Duration value;
}
