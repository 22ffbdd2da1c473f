package dev.speechscale.cli;

import dev.speechscale.cli.PublishedFlags.Flag;
import dev.speechscale.cli.PublishedFlags.Kind;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Puts {@link PublishedFlags}'s table on the commands: aliases that are not names on our own
 * options become hidden options that forward their value to ours, refusals become hidden options
 * that fail with the table's note, so the commands' own classes stay as they are.
 */
final class PublishedFlagOptions {
  private PublishedFlagOptions() {}

  /**
   * Registers the aliases and refusals on every subcommand of {@code root} the table names. A
   * subcommand that already has an option of the published name keeps it.
   */
  static Pending register(CommandLine root) {
    Pending pending = new Pending();
    for (Flag f : PublishedFlags.ALL) {
      CommandLine sub = subcommand(root, f.command());
      if (sub == null) {
        continue;
      }
      CommandSpec spec = sub.getCommandSpec();
      if (f.kind() == Kind.SAME
          || f.kind() == Kind.DIFFERS
          || spec.findOption(f.published()) != null) {
        continue;
      }
      if (f.kind() == Kind.ALIAS && spec.findOption(f.ours()) == null) {
        continue; // a renamed option of ours; PublishedFlagsTest names it
      }
      spec.addOption(option(spec, f, pending));
    }
    return pending;
  }

  /**
   * Alias values seen while parsing, set on our options once parsing is over: picocli gives an
   * option the command line did not name its default after parsing, which would overwrite a value
   * set through its alias during parsing.
   */
  static final class Pending {
    private final java.util.List<Runnable> sets = new java.util.ArrayList<>();

    /** Sets every alias value on its option, in command-line order, once. */
    void apply() {
      sets.forEach(Runnable::run);
      sets.clear();
    }
  }

  private static @Nullable CommandLine subcommand(CommandLine root, String command) {
    String[] words = command.split(" ");
    if (!words[0].equals(root.getCommandName())) {
      return null;
    }
    return root.getSubcommands().get(words[1]);
  }

  private static OptionSpec option(CommandSpec spec, Flag f, Pending pending) {
    OptionSpec.Builder b = OptionSpec.builder(f.published()).hidden(true);
    switch (f.kind()) {
      case ALIAS -> {
        OptionSpec ours = spec.findOption(f.ours());
        b.type(ours.type())
            .auxiliaryTypes(ours.auxiliaryTypes())
            .splitRegex(ours.splitRegex())
            .arity(ours.arity().toString())
            .paramLabel(ours.paramLabel())
            .converters(converter(f, ours))
            .setter(
                checking(value -> {
                  if (value != null) { // picocli resets unmatched options with null
                    pending.sets.add(() -> ours.setValue(value));
                  }
                }));
      }
      case ALWAYS ->
          checkOnly(b, f)
              .setter(
                  checking(value -> {
                    if (f.arity() == 1
                        && value != null
                        && !PublishedFlags.ONLY_TRIGGER.equals(value)) {
                      throw new CommandLine.ParameterException(
                          spec.commandLine(),
                          f.published() + " (" + value + "): " + f.note() + "; drop it");
                    }
                  }));
      case REFUSED ->
          checkOnly(b, f)
              .setter(
                  checking(value -> {
                    // null or false: picocli resetting an unmatched option
                    if (value != null && !Boolean.FALSE.equals(value)) {
                      throw new CommandLine.ParameterException(
                          spec.commandLine(), PublishedFlags.refusal(f));
                    }
                  }));
      case SAME, DIFFERS ->
          throw new IllegalStateException("nothing to register for " + f.published());
    }
    return b.build();
  }

  /** A switch (arity 0) or an option with one string value, for a flag that is only checked. */
  private static OptionSpec.Builder checkOnly(OptionSpec.Builder b, Flag f) {
    return b.arity(Integer.toString(f.arity())).type(f.arity() == 0 ? boolean.class : String.class);
  }

  /** A setter that stores nothing itself: it hands each value picocli sets to {@code check}. */
  private static CommandLine.Model.ISetter checking(Consumer<Object> check) {
    return new CommandLine.Model.ISetter() {
      @Override
      public <T> @Nullable T set(T value) {
        check.accept(value);
        return null;
      }
    };
  }

  private static CommandLine.ITypeConverter<?>[] converter(Flag f, OptionSpec ours) {
    return switch (f.conversion()) {
      case AS_IS -> ours.converters();
      case SECONDS -> new CommandLine.ITypeConverter<?>[] {new PublishedSeconds()};
      case MILLIS ->
          new CommandLine.ITypeConverter<?>[] {
            (CommandLine.ITypeConverter<Duration>)
                v -> {
                  try {
                    return Duration.ofMillis(Long.parseLong(v.trim()));
                  } catch (NumberFormatException e) {
                    throw new CommandLine.TypeConversionException(
                        String.format(
                            Locale.ROOT,
                            "'%s' is not a whole number of milliseconds (%s takes e.g. 3000; %s"
                                + " takes 3000ms)",
                            v,
                            f.published(),
                            f.ours()));
                  }
                }
          };
    };
  }
}
