package dev.speechscale.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every {@code speech-infra} command shares. */
final class InfraOptions {
  @Option(
      names = "--model",
      required = true,
      paramLabel = "NAME",
      description = "model name in the config; the endpoint is speech-<NAME>")
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
      names = "--region",
      paramLabel = "REGION",
      description = "aws: the region (default $AWS_REGION; CDK context region)")
  String region;

  @Option(names = "--account", paramLabel = "ID", description = "aws: the account (CDK context)")
  String account;

  @Option(names = "--profile", paramLabel = "NAME", description = "aws: a credentials profile")
  String profile;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "cdk.out",
      description = "aws: the cloud assembly directory (default ${DEFAULT-VALUE})")
  Path out;

  /** CDK context: account and region when given. */
  java.util.Map<String, String> context() {
    java.util.Map<String, String> c = new java.util.LinkedHashMap<>();
    String r = region != null ? region : System.getenv("AWS_REGION");
    if (account != null) {
      c.put("account", account);
    }
    if (r != null) {
      c.put("region", r);
    }
    return c;
  }

  boolean aws() {
    return platform.equals("aws");
  }

  String endpoint() {
    return "speech-" + model;
  }

  Path root() {
    return stateDir != null ? stateDir : dev.speechscale.platform.local.LocalPlatform.defaultRoot();
  }
}
