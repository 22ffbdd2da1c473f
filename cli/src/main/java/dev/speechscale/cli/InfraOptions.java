package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.platform.Infra;
import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.PlatformSettings;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Options every {@code speech-infra} command shares. Option help: {@code flags.properties}. */
final class InfraOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** Set by {@code --model NAME} or the positional {@code MODEL}; checked by {@link Cli}. */
  @Option(names = Flags.MODEL, paramLabel = "NAME", descriptionKey = "speech-infra.model")
  @Nullable String model;

  /** The published tool's spelling: {@code speech-infra deploy kokoro-82m}. */
  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "MODEL",
      description = "the model, as the published tool takes it: same as --model MODEL")
  void positional(String name) {
    if (model != null && !model.equals(name)) {
      throw new ParameterException(
          mixee.commandLine(),
          "MODEL ("
              + name
              + ") and --model ("
              + model
              + ") name different models; give one of them");
    }
    model = name;
  }

  /** Exit 2 unless the model was given. */
  void requireModel(CommandSpec command) {
    model(command);
  }

  /** The model, checked by {@link Cli} before {@code call()}; exit 2 when none was given. */
  private String model(CommandSpec command) {
    if (model == null) {
      throw new ParameterException(
          command.commandLine(),
          "give the model: "
              + command.qualifiedName()
              + " MODEL (or --model NAME); the endpoint is speech-MODEL");
    }
    return model;
  }

  @Mixin PlatformChoice where;

  @Option(names = Flags.REGION, paramLabel = "REGION", descriptionKey = "speech-infra.region")
  @Nullable String region;

  @Option(names = Flags.ACCOUNT, paramLabel = "ID")
  @Nullable String account;

  @Option(names = Flags.PROFILE, paramLabel = "NAME")
  @Nullable String profile;

  @Option(names = Flags.OUT, paramLabel = "DIR", defaultValue = "cdk.out")
  Path out;

  /**
   * The chosen platform's deployment side, printing to the command's streams.
   *
   * @throws picocli.CommandLine.ParameterException (exit 2) when no such platform is on the
   *     classpath
   */
  Infra infra(CommandSpec spec) {
    PlatformProvider provider =
        where.provider().orElseThrow(() -> Cli.usage(spec, where.notFound()));
    return provider.infra(
        settings(),
        model(spec),
        WriterOutputStream.printStream(spec.commandLine().getOut()),
        WriterOutputStream.printStream(spec.commandLine().getErr()));
  }

  private PlatformSettings settings() {
    return new PlatformSettings(where.stateDir, region, account, profile, null, out);
  }
}
