package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QmaxRequest;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qmax}'s checks and requests: the idle rung, the CPU limit, the texts and their log. Option
 * help: {@code flags.properties}.
 */
final class QmaxLoadOptions {
  @Option(names = Flags.NO_IDLE_RUNG)
  boolean noIdleRung;

  @Option(names = Flags.ALLOW_UNENFORCED_CPU)
  boolean allowUnenforcedCpu;

  @Option(names = Flags.TEXTS, paramLabel = "FILE")
  @Nullable Path texts;

  @Option(names = Flags.SEED, defaultValue = "1")
  long seed;

  @Mixin EventsOption events;

  QmaxRequest.Load load(Transport transport) {
    return new QmaxRequest.Load(transport, texts, seed, events.file);
  }

  QmaxRequest.Checks checks() {
    return new QmaxRequest.Checks(!noIdleRung, allowUnenforcedCpu);
  }
}
