package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.RepeatedTtotal;
import dev.speechscale.chain.TtotalRequest;
import dev.speechscale.chain.TtotalRun;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import dev.speechscale.report.TtotalTable;
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
 * {@code tts-bench ttotal}: how long a real scale-out takes, stage by stage. Option help: {@code
 * flags.properties}.
 */
@Command(
    name = "ttotal",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Hold a probe at concurrency N on one frozen instance, raise desired capacity by one, and"
          + " time every stage until traffic recovers. Restores capacity and the freeze on every"
          + " exit path. Writes ttotal-<model>-force-desired-<slug>.json.",
      "Refuses a qmax artifact of another transport or fingerprint (unless"
          + " "
          + Flags.ALLOW_CONFIG_MISMATCH
          + "), and one without usable rungs at N and N/2."
    })
final class TtotalCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin ChainOptions common;

  @Mixin QmaxFileOption qmax;

  @Mixin TransportOption transport;

  @Option(names = Flags.PROBE_CONCURRENCY, paramLabel = "N")
  @Nullable Integer probe;

  @Option(names = Flags.RECOVERY_WINDOW, defaultValue = "60s", paramLabel = "DURATION")
  Duration recoveryWindow;

  @Option(names = Flags.SETTLE, defaultValue = "10s", paramLabel = "DURATION")
  Duration settle;

  @Option(names = Flags.TIMEOUT, paramLabel = "DURATION")
  @Nullable Duration timeout;

  @Option(names = Flags.NEW_INSTANCE_FOR, defaultValue = "60s", paramLabel = "DURATION")
  Duration newInstanceFor;

  @Mixin ConfigMismatchOption mismatch;

  @Mixin TextsOption texts;

  @Mixin OutputOption output;

  @Mixin RunsOption runs;

  @Mixin JsonOption json;

  @Override
  public Integer call() {
    common.checkTransport(transport.given);
    if (runs.value < 1) {
      throw Cli.usage(
          spec,
          Flags.RUNS
              + " ("
              + runs.value
              + ") must be at least 1; time one scale-out with --runs 1");
    }
    TtotalRequest request = request();
    TtotalArtifact t =
        common.onPlatform((platform, progress) ->
            RepeatedTtotal.run(platform, request, NanoClock.SYSTEM, progress));
    Path target = output.orDefault(t.defaultFileName());
    ArtifactCodec.write(target, t);
    PrintWriter out = spec.commandLine().getOut();
    if (json.printed(out, t)) {
      return 0;
    }
    TtotalTable.print(t, out);
    out.println("wrote " + target);
    out.println(
        "next: tts-bench plan --qmax "
            + qmax.file
            + " "
            + Flags.TTOTAL
            + " "
            + target
            + " "
            + Flags.PEAK_RPS
            + " N");
    return 0;
  }

  /** The measurement the options ask for: the probe's transport the ladder's unless given. */
  TtotalRequest request() {
    Transport t =
        transport.given == null
            ? Transport.ofLabel(ArtifactCodec.readQmax(qmax.file).transport())
            : common.transport(transport.given);
    return new TtotalRequest(
        common.target(),
        qmax.file,
        new TtotalRequest.Probe(t, probe, texts.file),
        new TtotalRun.Timing(recoveryWindow, settle, timeout, newInstanceFor),
        runs.value,
        mismatch.allowed);
  }
}
