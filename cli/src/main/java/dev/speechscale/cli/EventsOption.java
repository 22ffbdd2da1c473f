package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * {@code --events FILE}: the per-request event log a live load writes, or {@code export} reads.
 * Option help: {@code flags.properties}, per command.
 */
final class EventsOption {
  @Option(names = Flags.EVENTS, paramLabel = "FILE")
  @Nullable Path file;
}
