package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --endpoint-url URL}: an endpoint override for the AWS APIs a command calls. Option help:
 * {@code flags.properties}.
 */
final class EndpointUrlOption {
  @Option(names = Flags.ENDPOINT_URL, paramLabel = "URL")
  @Nullable URI uri;
}
