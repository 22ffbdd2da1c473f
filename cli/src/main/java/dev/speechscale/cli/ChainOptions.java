package dev.speechscale.cli;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.Transport;
import dev.speechscale.platform.local.LocalPlatform;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every chain command shares: which endpoint, on which platform. */
final class ChainOptions {
  @Option(
      names = "--model",
      required = true,
      paramLabel = "NAME",
      description = "the model; the endpoint is speech-<NAME>")
  String model;

  @Option(
      names = "--platform",
      defaultValue = "local",
      paramLabel = "local|aws",
      description = "where the endpoint runs (default ${DEFAULT-VALUE})")
  String platform;

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      description = "local control state (default $SPEECHSCALE_STATE_DIR or ~/.speechscale/local)")
  Path stateDir;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      defaultValue = "endpoints.yaml",
      description = "endpoint config file (default ${DEFAULT-VALUE})")
  Path config;

  @Option(
      names = "--region",
      paramLabel = "REGION",
      description = "aws: the region (default $AWS_REGION)")
  String region;

  @Option(names = "--profile", paramLabel = "NAME", description = "aws: a credentials profile")
  String profile;

  @Option(
      names = "--runtime-url",
      paramLabel = "URL",
      description = "aws: SageMaker Runtime endpoint override (e.g. a local platform's router)")
  java.net.URI runtimeUrl;

  String endpoint() {
    return "speech-" + model;
  }

  /** The platform to talk to; the caller closes it. */
  Platform open() {
    return switch (platform) {
      case "local" -> new LocalPlatform(stateDir != null ? stateDir : LocalPlatform.defaultRoot());
      case "aws" ->
          dev.speechscale.platform.aws.AwsPlatform.create(
              new dev.speechscale.platform.aws.AwsPlatform.Settings(
                  region != null ? region : System.getenv("AWS_REGION"),
                  profile,
                  runtimeUrl,
                  null));
      default -> throw new CliException("--platform (" + platform + ") must be local or aws");
    };
  }

  /** The endpoint config for the model, if the config file exists. */
  EndpointConfig endpointConfig() {
    if (!Files.exists(config)) {
      throw new CliException(
          "no endpoint config at "
              + config
              + "; pass --config FILE (the file"
              + " speech-infra deployed from)");
    }
    return EndpointConfigFile.read(config).model(model);
  }

  /** The transport: given, else the platform's natural one. */
  Transport transport(String given) {
    if (given != null) {
      return Transport.ofLabel(given);
    }
    return platform.equals("aws") ? Transport.RESPONSE_STREAM : Transport.HTTP_STREAM;
  }

  /** {@code plan-<model>.json} beside the config file. */
  Path defaultPlan() {
    return config.toAbsolutePath().getParent().resolve("plan-" + model + ".json");
  }
}
