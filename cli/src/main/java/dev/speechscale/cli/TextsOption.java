package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --texts FILE}: the request texts a live load sends, one a line. Option help: {@code
 * flags.properties}.
 */
final class TextsOption {
  @Option(names = Flags.TEXTS, paramLabel = "FILE")
  @Nullable Path file;
}
