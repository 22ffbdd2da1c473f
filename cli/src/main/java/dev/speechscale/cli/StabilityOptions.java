package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.loadgen.StabilityRule;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The options that hold each qmax rung until its windows agree ({@link StabilityRule}), shared by
 * {@code qmax} and {@code quickstart}; checked against the ladder's hold and window by {@link
 * #rule}. Option help: {@code flags.properties}.
 */
final class StabilityOptions {
  // the one help text written here, not in flags.properties: its default is StabilityRule's
  // constant
  @Option(
      names = Flags.STABILITY_WINDOWS,
      paramLabel = "K",
      description =
          "after each rung's warm-up, measure consecutive windows until K in a row agree"
              + " (throughput and p95 TTFAB within --stability-percent of their mean); the rung"
              + " reports those K together. 1 measures the hold's trailing window once, as before"
              + " (default "
              + StabilityRule.DEFAULT_WINDOWS
              + ")")
  @Nullable Integer windows;

  @Option(names = Flags.STABILITY_PERCENT, paramLabel = "PERCENT")
  @Nullable String percent;

  @Option(names = Flags.MAX_HOLD, paramLabel = "DURATION")
  @Nullable Duration maxHold;

  /**
   * The rule these options ask for on a ladder of {@code hold} and {@code window}: the defaults for
   * that ladder where nothing was given.
   *
   * @throws picocli.CommandLine.ParameterException (exit 2) for a value out of range, a max hold
   *     too short for the windows, or a stability option with {@code --stability-windows 1}
   */
  StabilityRule rule(CommandSpec spec, Duration hold, Duration window) {
    int k = windows == null ? StabilityRule.DEFAULT_WINDOWS : windows;
    if (k < 1) {
      throw Cli.usage(
          spec,
          Flags.STABILITY_WINDOWS
              + " ("
              + k
              + ") must be at least 1; 1 measures each rung's trailing window once, as before");
    }
    double pct = percent == null ? StabilityRule.DEFAULT_PERCENT : percent(spec, percent);
    if (k == 1) {
      String idle =
          maxHold != null ? Flags.MAX_HOLD : percent != null ? Flags.STABILITY_PERCENT : null;
      if (idle != null) {
        throw Cli.usage(
            spec,
            idle
                + " has no effect with --stability-windows 1 (one window agrees with itself);"
                + " drop it, or ask for 2 or more windows");
      }
      return StabilityRule.SINGLE_WINDOW;
    }
    StabilityRule defaults = StabilityRule.withWindows(k, pct, hold, window);
    if (maxHold == null) {
      return defaults;
    }
    Duration fits = hold.plus(window.multipliedBy(k - 1L));
    if (maxHold.compareTo(fits) < 0) {
      throw Cli.usage(
          spec,
          Flags.MAX_HOLD
              + " ("
              + show(maxHold)
              + ") must be at least --hold + (--stability-windows - 1) x --window = "
              + show(hold)
              + " + "
              + (k - 1)
              + " x "
              + show(window)
              + " = "
              + show(fits)
              + ", so "
              + k
              + " windows fit after the warm-up; lengthen --max-hold or lower"
              + " "
              + Flags.STABILITY_WINDOWS);
    }
    return new StabilityRule(k, pct, maxHold);
  }

  /** {@code 10} or {@code 10%}: above 0 and at most 100. */
  private static double percent(CommandSpec spec, String text) {
    return Percent.parse(
        spec,
        Flags.STABILITY_PERCENT,
        text,
        v -> v > 0 && v <= 100,
        "a percentage above 0 and at most 100 of the windows' mean, e.g. 10 or 10%");
  }

  /** {@code 18s}, {@code 1m50s}; sub-second durations in ms. */
  private static String show(Duration d) {
    return d.toMillis() % 1000 == 0
        ? Durations.wallClock(d)
        : String.format(Locale.ROOT, "%dms", d.toMillis());
  }
}
