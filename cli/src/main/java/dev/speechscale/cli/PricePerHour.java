package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * An instance's price per hour as {@code plan} and {@code search} take it ({@code
 * --price-per-hour}, {@code search --also-type}): a positive, finite number of US dollars.
 */
final class PricePerHour {
  private PricePerHour() {}

  /** True when {@code usd} is a price: positive and finite. */
  static boolean valid(double usd) {
    return usd > 0 && usd < Double.POSITIVE_INFINITY;
  }

  /**
   * Exit 2 unless {@code usd} (the {@code --price-per-hour} given) is absent or {@link #valid}.
   *
   * @param example how the message ends, e.g. {@code ", e.g. 1.408"}
   */
  static void check(CommandSpec spec, @Nullable Double usd, String example) {
    if (usd != null && !valid(usd)) {
      throw Cli.usage(
          spec,
          Flags.PRICE_PER_HOUR
              + " ("
              + usd
              + ") must be a positive number of US dollars"
              + example);
    }
  }
}
