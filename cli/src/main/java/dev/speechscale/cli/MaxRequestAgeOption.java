package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --max-request-age DURATION}: the simulated server's deadline, by default the server's own.
 * Option help: {@code flags.properties}.
 */
final class MaxRequestAgeOption {
  /** The server's default MAX_REQUEST_AGE_S. */
  static final String DEFAULT = "56s";

  @Option(names = Flags.MAX_REQUEST_AGE, defaultValue = DEFAULT, paramLabel = "DURATION")
  Duration value;
}
