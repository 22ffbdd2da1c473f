package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --region REGION} and {@code --profile NAME}: which AWS region, with which credentials.
 * Option help: {@code flags.properties}.
 */
final class AwsAccessOptions {
  @Option(names = Flags.REGION, paramLabel = "REGION")
  @Nullable String region;

  @Option(names = Flags.PROFILE, paramLabel = "NAME")
  @Nullable String profile;
}
