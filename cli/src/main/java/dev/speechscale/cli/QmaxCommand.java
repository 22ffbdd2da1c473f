package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.QmaxRequest;
import dev.speechscale.chain.QmaxRun;
import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.ProgressPrinter;
import dev.speechscale.platform.LadderDefaults;
import dev.speechscale.platform.NanoClock;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench qmax}: the concurrency ceiling of one instance inside the SLO. Its options fill
 * a {@link QmaxRequest} ({@link #request()}); {@link QmaxRun} runs it. Option help: {@code
 * flags.properties}.
 */
@Command(
    name = "qmax",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Freeze scaling, pin capacity to 1, and walk a closed-loop ladder (N workers, one request"
          + " each) until the p95 TTFAB SLO breaks; bisect to +/-1. Restores the endpoint on every"
          + " exit path. Writes qmax-<model>-<transport>-<slug>.json.",
      Flags.DRY_RUN
          + " prints the schedule and a wall-clock estimate without touching the endpoint."
    })
final class QmaxCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Option(names = Flags.SLO, paramLabel = "DURATION")
  @Nullable Duration slo;

  /** The published tool's {@code --slo-ms 3000}: the same SLO in whole milliseconds. */
  @Option(names = Flags.SLO_MS, hidden = true, paramLabel = "MS")
  void sloMs(long ms) {
    slo = Duration.ofMillis(ms);
  }

  @Mixin TransportOption transport;

  @Mixin QmaxLadderOptions ladder;
  @Mixin DriftRecheckOptions drift;
  @Mixin QmaxLoadOptions load;

  @Mixin OutputOption output;

  @Mixin JsonOption json;

  @Mixin QmaxDryRunOptions dry;

  @Override
  public Integer call() {
    common.checkTransport(transport.given);
    PrintWriter out = spec.commandLine().getOut();
    if (dry.dryRun) {
      LadderDefaults defaults = common.ladderDefaults();
      LadderSpec spec = ladder(defaults);
      out.print(dry.schedule(common.where.platform, defaults, spec, !load.noIdleRung));
      return 0;
    }
    QmaxRequest request = request();
    PrintStream err = WriterOutputStream.printStream(spec.commandLine().getErr());
    QmaxArtifact a =
        common.onPlatform((platform, progress) ->
            QmaxRun.run(
                platform,
                request,
                NanoClock.SYSTEM,
                new ProgressPrinter(err, request.ladder().spec().sloMs()),
                progress));
    Path target = output.orDefault(a.defaultFileName());
    ArtifactCodec.write(target, a);
    if (!json.printed(out, a)) {
      QmaxSummary.print(out, a, target, common.model(), common.where.stateDir);
    }
    return 0;
  }

  /** The run the options ask for: the platform's ladder defaults where they say nothing. */
  QmaxRequest request() {
    LadderDefaults defaults = common.ladderDefaults();
    return new QmaxRequest(
        common.target(),
        load.load(common.transport(transport.given)),
        new QmaxRequest.Ladder(ladder(defaults), defaults.source()),
        load.checks());
  }

  private LadderSpec ladder(LadderDefaults defaults) {
    double sloMs = slo != null ? slo.toMillis() : common.endpointConfig().ttfabSloMs();
    return ladder.spec(spec, defaults, sloMs, drift.recheck(spec));
  }
}
