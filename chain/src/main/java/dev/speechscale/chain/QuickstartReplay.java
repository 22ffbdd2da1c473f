package dev.speechscale.chain;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** {@code quickstart}'s replay step ({@link QuickstartSteps} runs it; it may fail on its own). */
final class QuickstartReplay {
  private static final Duration QUIET = Duration.ofSeconds(20);
  private static final Duration SURGE = Duration.ofSeconds(40);
  private static final Duration FALL = Duration.ofSeconds(30);

  private QuickstartReplay() {}

  /**
   * What the replay step left for the report: the artifact, or why it did not run.
   *
   * @param artifact the comparison, or {@code null} when it did not run
   * @param notRun why not, or {@code null} when it ran
   */
  record Outcome(@Nullable ReplayArtifact artifact, @Nullable String notRun) {}

  /**
   * Runs the step; a refusal or failure of the chain is the outcome's reason, not the run's end.
   */
  static Outcome attempt(
      QuickstartSteps s, ReplayPrediction.Inputs inputs, Path planFile, Path plannedConfig) {
    try {
      return new Outcome(run(s, inputs, planFile, plannedConfig), null);
    } catch (ChainException e) {
      s.progress().replayNotRun(e.getMessage());
      return new Outcome(null, e.getMessage());
    }
  }

  /**
   * A short replay (the calibration trace scaled to the plan's X at C_scale_max: 20 s quiet, 40 s
   * surge past one instance, 30 s quiet) on a fresh deployment behind the plan, predicted by the
   * simulator from this run's artifacts with no metric history (the fresh deployment's alarms have
   * none either), and compared.
   */
  private static ReplayArtifact run(
      QuickstartSteps s, ReplayPrediction.Inputs inputs, Path planFile, Path plannedConfig) {
    s.progress()
        .step(9, "replay: the simulator's prediction against the live fleet (90 s of traffic)");
    // validate left the fleet scaled out; a fresh deployment starts at the floor, quiet
    s.deployments()
        .deploy(
            EndpointConfigFile.read(plannedConfig).model(s.o().model()), plannedConfig, planFile);
    Replay.TraceSource.Calibration trace =
        new Replay.TraceSource.Calibration(
            s.dir().resolve("trace-calibration.csv"), QUIET, SURGE, FALL);
    Replay.Request request =
        new Replay.Request(
            s.target(plannedConfig),
            inputs,
            trace,
            1,
            new Replay.Live(
                Transport.HTTP_STREAM,
                Duration.ofMillis(200),
                true,
                s.dir().resolve("replay-events.jsonl"),
                s.o().ladder().warmup()),
            new Replay.Prediction(
                Duration.ZERO,
                new Replay.History.Live(),
                InstanceSpeed.Source.LADDER,
                HostSpeedLogs.Source.LIVE,
                Replay.InitialInstances.FRESH),
            "tts-bench quickstart (replay)",
            Map.of(
                "quiet",
                "20s",
                "surge",
                "40s",
                "fall",
                "30s",
                "pre_roll",
                "live",
                "warmup_s",
                s.o().ladder().warmup().toMillis() / 1000.0,
                "speed",
                "ladder",
                "host_speed",
                "live",
                "initial_instances",
                "fresh"));
    ReplayArtifact a = Replay.run(s.platform(), request, s.clocks(), s.progress()::detail);
    ArtifactCodec.write(s.dir().resolve("replay-" + s.o().model() + ".json"), a);
    s.progress().replay(a);
    // a fresh deployment behind the plan, then the replay
    s.rerun()
        .put(
            "replay",
            s.lines().deployBehind(plannedConfig, planFile) + " && bin/" + request.commandLine());
    return a;
  }
}
