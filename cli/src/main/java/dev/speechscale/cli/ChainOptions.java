package dev.speechscale.cli;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.Target;
import dev.speechscale.platform.LadderDefaults;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.PlatformSettings;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Options every chain command shares: which endpoint, on which platform. Option help: {@code
 * flags.properties}.
 */
final class ChainOptions {
  private static final String ENDPOINT_PREFIX = "speech-";

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** Set by {@code --model NAME} or {@code --endpoint speech-NAME}; checked by {@link Cli}. */
  @Option(names = Flags.MODEL, paramLabel = "NAME")
  @Nullable String model;

  /**
   * The published tool's spelling ({@code thaw --endpoint speech-kokoro-82m}): the endpoint by
   * name, the same as {@code --model kokoro-82m}.
   */
  @Option(names = Flags.ENDPOINT, paramLabel = "speech-NAME")
  void endpoint(String name) {
    if (!name.startsWith(ENDPOINT_PREFIX) || name.length() == ENDPOINT_PREFIX.length()) {
      throw new ParameterException(
          mixee.commandLine(),
          Flags.ENDPOINT
              + " ("
              + name
              + ") must be speech-<model>, e.g. speech-kokoro-82m; or give --model <model>");
    }
    String fromEndpoint = name.substring(ENDPOINT_PREFIX.length());
    if (model != null && !model.equals(fromEndpoint)) {
      throw new ParameterException(
          mixee.commandLine(),
          Flags.ENDPOINT
              + " ("
              + name
              + ") and --model ("
              + model
              + ") name different endpoints; give one of them");
    }
    model = fromEndpoint;
  }

  /**
   * Exit 2 unless the model was given; {@code drift} alone may run without one (it then checks
   * every endpoint in the config).
   */
  void requireModel(CommandSpec command) {
    if (model == null && !(command.userObject() instanceof DriftCommand)) {
      throw noModel(command);
    }
  }

  /**
   * The model; {@link Cli} checked it was given before {@code call()} ({@code drift} asks only when
   * it has one).
   *
   * @throws ParameterException (exit 2) when none was given
   */
  String model() {
    if (model == null) {
      throw noModel(mixee);
    }
    return model;
  }

  private static ParameterException noModel(CommandSpec command) {
    return new ParameterException(
        command.commandLine(),
        "give the model: --model NAME (the endpoint is speech-NAME) or --endpoint speech-NAME");
  }

  @Mixin PlatformChoice where;

  @Mixin ConfigOption config;

  @Mixin AwsAccessOptions aws;

  @Option(names = Flags.RUNTIME_URL, paramLabel = "URL")
  java.net.@Nullable URI runtimeUrl;

  @Mixin EndpointUrlOption endpointUrl;

  String endpoint() {
    return ENDPOINT_PREFIX + model();
  }

  /** The platform to talk to; the caller closes it. */
  Platform open() {
    return provider().open(settings());
  }

  /** A chain step run on the platform, reporting its progress by line. */
  interface Step<T> {
    T run(Platform platform, Consumer<String> progress);
  }

  /** Runs {@code step} on the platform, opened for it and closed after; progress goes to stderr. */
  <T> T onPlatform(Step<T> step) {
    try (Platform platform = open()) {
      return step.run(platform, line -> mixee.commandLine().getErr().println(line));
    }
  }

  private PlatformSettings settings() {
    return new PlatformSettings(
        where.stateDir, aws.region, null, aws.profile, runtimeUrl, null, endpointUrl.uri);
  }

  /** The qmax ladder the chosen platform walks when none is given; no endpoint call. */
  LadderDefaults ladderDefaults() {
    return provider().ladderDefaults();
  }

  /**
   * The metric publication delay a simulation of the chosen platform assumes when none is given;
   * none for a platform not on the classpath (opening it reports that).
   */
  Duration typicalMetricPublicationDelay() {
    return where
        .provider()
        .map(PlatformProvider::typicalMetricPublicationDelay)
        .orElse(Duration.ZERO);
  }

  private PlatformProvider provider() {
    return where.provider().orElseThrow(() -> new CliException(where.notFound()));
  }

  /** The endpoint a chain step runs against: model, platform, config file and local state. */
  Target target() {
    return new Target(model(), where.platform, config.file, where.stateDir);
  }

  /** The endpoint config for the model, if the config file exists. */
  EndpointConfig endpointConfig() {
    return config.read("pass --config FILE (the file speech-infra deployed from)").model(model());
  }

  /** The transport: given, else the platform's natural one. */
  /**
   * Refuses a {@code --transport} that names no transport as a usage error, before the command
   * reads a config or an artifact (each of which would otherwise fail first, with exit 1).
   */
  void checkTransport(@Nullable String given) {
    if (given != null) {
      Transport unused = transport(given);
    }
  }

  Transport transport(@Nullable String given) {
    if (given != null) {
      try {
        return Transport.ofLabel(given);
      } catch (IllegalArgumentException e) {
        throw Cli.usage(mixee, Flags.TRANSPORT + ": " + Cli.message(e));
      }
    }
    return provider().naturalTransport();
  }

  /** {@code plan-<model>.json} beside the config file. */
  Path defaultPlan() {
    return besideConfig("plan-" + model() + ".json");
  }

  /** The file {@code name} in the config file's folder (the root's own, for {@code --config /}). */
  Path besideConfig(String name) {
    Path file = config.file.toAbsolutePath();
    Path folder = file.getParent();
    return (folder != null ? folder : file).resolve(name);
  }
}
