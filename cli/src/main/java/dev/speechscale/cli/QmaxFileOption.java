package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --qmax FILE}: the qmax artifact a step builds on (required). Option help: {@code
 * flags.properties}.
 */
final class QmaxFileOption {
  @Option(names = Flags.QMAX, required = true, paramLabel = "FILE")
  Path file;
}
