package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.chain.Flags;
import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * {@code --json}: print the artifact a command wrote as JSON instead of its table. Option help:
 * {@code flags.properties}.
 */
final class JsonOption {
  @Option(names = Flags.JSON)
  boolean asked;

  /** Prints {@code artifact} as JSON when {@code --json} was given; true when it did. */
  boolean printed(PrintWriter out, Object artifact) {
    if (asked) {
      out.print(ArtifactCodec.toJson(artifact));
    }
    return asked;
  }
}
