package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --ttotal FILE} (required, repeatable): the ttotal artifacts a simulation draws its
 * instances' start-up delays from. Option help: {@code flags.properties}, per command.
 */
final class TtotalFilesOption {
  @Option(names = Flags.TTOTAL, required = true, paramLabel = "FILE")
  List<Path> files;

  /** The files as parameters record them: the one path, or the list of several. */
  Object recorded() {
    return files.size() == 1
        ? files.getFirst().toString()
        : files.stream().map(Path::toString).toList();
  }
}
