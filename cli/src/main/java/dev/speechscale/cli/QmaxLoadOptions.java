package dev.speechscale.cli;

import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QmaxRequest;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** {@code qmax}'s checks and requests: the idle rung, the CPU limit, the texts and their log. */
final class QmaxLoadOptions {
  @Option(
      names = Flags.NO_IDLE_RUNG,
      description =
          "skip the open-loop rung after the ladder (Poisson at 0.45 x the best throughput for"
              + " about 150 requests, 1.5 to 4 windows) that measures how an instance below saturation serves requests that"
              + " find it idle; without it the simulator and replay assume they serve as queued"
              + " ones")
  boolean noIdleRung;

  @Option(
      names = Flags.ALLOW_UNENFORCED_CPU,
      description =
          "measure even when the instance type's CPU limit is not in force (no writable cpu"
              + " cgroup), recording it as not enforced; by default qmax stops")
  boolean allowUnenforcedCpu;

  @Option(
      names = Flags.TEXTS,
      paramLabel = "FILE",
      description = "one request text per line (default: built-in Harvard sentences)")
  @Nullable Path texts;

  @Option(names = Flags.SEED, defaultValue = "1", description = "text shuffle seed (default 1)")
  long seed;

  @Option(names = Flags.EVENTS, paramLabel = "FILE", description = "per-request JSON-lines log")
  @Nullable Path events;

  QmaxRequest.Load load(Transport transport) {
    return new QmaxRequest.Load(transport, texts, seed, events);
  }

  QmaxRequest.Checks checks() {
    return new QmaxRequest.Checks(!noIdleRung, allowUnenforcedCpu);
  }
}
