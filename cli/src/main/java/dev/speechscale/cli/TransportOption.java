package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --transport http-stream|response-stream|bidi}: the transport a live load uses, as given
 * (read by {@link ChainOptions#transport}). Option help: {@code flags.properties}, per command.
 */
final class TransportOption {
  @Option(names = Flags.TRANSPORT, paramLabel = "http-stream|response-stream|bidi")
  @Nullable String given;
}
