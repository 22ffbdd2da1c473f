package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --price-per-hour USD}: an instance-hour's price, checked by {@link PricePerHour}. Option
 * help: {@code flags.properties}, per command.
 */
final class PricePerHourOption {
  @Option(names = Flags.PRICE_PER_HOUR, paramLabel = "USD")
  @Nullable Double usd;
}
