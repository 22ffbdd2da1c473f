package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --output FILE}: where a command writes its artifact. Option help: {@code
 * flags.properties}, per command.
 */
final class OutputOption {
  @Option(names = Flags.OUTPUT, paramLabel = "FILE")
  @Nullable Path file;

  /** The file given, else {@code defaultName} in the working directory. */
  Path orDefault(String defaultName) {
    return file != null ? file : Path.of(defaultName);
  }
}
