package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactException;
import dev.speechscale.capacity.CapacityException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.ResourceBundle;
import picocli.CommandLine;

/**
 * Runs a picocli command with the product's exit-code contract: 0 ok, 1 refusal or failure, 2 usage
 * error. Output streams are injected so tests read exactly what a user sees.
 */
final class Cli {
  private Cli() {}

  /** Runs {@code command} on the process's stdout and stderr (UTF-8) and exits with its code. */
  static void main(Object command, String[] args) {
    PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(command, args, out, err));
  }

  static int run(Object command, String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = commandLine(command);
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler((ex, a) -> {
      CommandLine c = ex.getCommandLine();
      // a closed set's refusal is the whole sentence; picocli would wrap it in its own
      c.getErr()
          .println(
              "error: "
                  + (ex.getCause() instanceof Choice.Refused refused
                      ? refused.getMessage()
                      : ex.getMessage()));
      c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help'.");
      c.getErr().flush();
      return CommandLine.ExitCode.USAGE;
    });
    cl.setExecutionExceptionHandler((ex, c, parsed) -> {
      c.getErr().println("error: " + message(ex));
      c.getErr().flush();
      if (!(ex instanceof CliException
          || ex instanceof ArtifactException
          || ex instanceof CapacityException
          || ex instanceof dev.speechscale.simulator.SimulatorException
          || ex instanceof dev.speechscale.chain.ChainException
          || ex instanceof dev.speechscale.platform.PlatformException
          || ex instanceof dev.speechscale.loadgen.LoadgenException
          || ex instanceof dev.speechscale.simulator.SimulatorException
          || ex instanceof UncheckedIOException)) {
        ex.printStackTrace(c.getErr());
      }
      return 1;
    });
    int code = cl.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /**
   * The resource bundle that holds every option's description ({@code
   * src/main/resources/dev/speechscale/cli/flags.properties}): the annotations declare an option's
   * name, default and label, the bundle what its help says.
   */
  static final String FLAGS_BUNDLE = "dev.speechscale.cli.flags";

  /**
   * The command line as every run builds it: the options' descriptions ({@link #FLAGS_BUNDLE}), our
   * converters, the published tool's flags ({@link PublishedFlags}), and the model check that lets
   * {@code --model}, {@code --endpoint} and a positional MODEL stand for one another.
   */
  static CommandLine commandLine(Object command) {
    CommandLine cl = new CommandLine(command);
    cl.setResourceBundle(ResourceBundle.getBundle(FLAGS_BUNDLE, Locale.ROOT));
    cl.registerConverter(Duration.class, new Durations());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    PublishedFlagOptions.Pending aliases = PublishedFlagOptions.register(cl);
    cl.setExecutionStrategy(parsed -> {
      aliases.apply();
      requireModel(parsed);
      return new CommandLine.RunLast().execute(parsed);
    });
    return cl;
  }

  /** The model options are not picocli-required (three spellings); the check is here. */
  private static void requireModel(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult last = parsed;
    while (last.hasSubcommand()) {
      last = last.subcommand();
    }
    if (last.isUsageHelpRequested() || last.isVersionHelpRequested()) {
      return;
    }
    for (CommandLine.Model.CommandSpec mixin : last.commandSpec().mixins().values()) {
      if (mixin.userObject() instanceof ChainOptions chain) {
        chain.requireModel(last.commandSpec());
      } else if (mixin.userObject() instanceof InfraOptions infra) {
        infra.requireModel(last.commandSpec());
      }
    }
  }

  /** The exception's message, or its class's name when it has none. */
  static String message(Exception ex) {
    return ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
  }

  /**
   * The command line as typed, for provenance: {@code tts-bench plan --qmax ...}. picocli hands a
   * subcommand the whole original argument list, its own name included ({@code plan --qmax ...});
   * prefixing the qualified name to that wrote {@code tts-bench plan plan ...}.
   */
  static String commandLine(CommandLine.Model.CommandSpec spec) {
    java.util.List<String> args = spec.commandLine().getParseResult().originalArgs();
    int at = args.indexOf(spec.name());
    java.util.List<String> own = at < 0 ? args : args.subList(at + 1, args.size());
    String qualified = spec.qualifiedName();
    return own.isEmpty() ? qualified : qualified + " " + String.join(" ", own);
  }

  /**
   * The {@code tts-bench} command line as typed, for provenance, whether the command runs under
   * {@code tts-bench} (the original arguments start with its name) or on its own (tests: they do
   * not).
   */
  static String typedUnderTtsBench(CommandLine.Model.CommandSpec spec) {
    java.util.List<String> args = spec.commandLine().getParseResult().originalArgs();
    boolean named = !args.isEmpty() && args.getFirst().equals(spec.name());
    return "tts-bench " + (named ? "" : spec.name() + " ") + String.join(" ", args);
  }

  /** Builds a usage error for the current command: exit code 2 with the message as given. */
  static CommandLine.ParameterException usage(CommandLine.Model.CommandSpec spec, String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
