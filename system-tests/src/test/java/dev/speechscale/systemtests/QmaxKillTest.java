package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.local.LocalPlatform;
import dev.speechscale.platform.local.TestPlans;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault scenario of a hard-killed measurement: {@code kill -9} of {@code tts-bench qmax}
 * mid-ladder leaves scaling suspended (no exit path runs), {@code drift} reports it as an error,
 * {@code thaw} restores it, and {@code drift} is clean again.
 */
class QmaxKillTest {
  @TempDir Path dir;

  @Test
  void killNineQmaxMidLadder_driftReportsTheFreeze_thawRestoresIt() throws Exception {
    Path state = dir.resolve("state");
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        """
        models:
          kill:
            engine: flite
            instance_type: local.500mcpu
            min_instances: 1
            max_instances: 2
            scaling_target_value: 3.0
            scale_in_threshold: 1.5
            scale_out_cooldown_s: 30
            scale_in_cooldown_s: 300
            ttfab_slo_ms: 5000
            queue_max_depth: 0
        """);
    String[] where = {
      "--model", "kill", "--state-dir", state.toString(), "--config", config.toString()
    };
    Path plan = dir.resolve("plan-kill.json");
    TestPlans.writeMatching(config, "kill", state, plan);
    try (LocalPlatform platform = new LocalPlatform(state)) {
      assertThat(Cli.speechInfra(concat("deploy", where)).exitCode()).isZero();
      assertThat(platform.scalingState("speech-kill").target()).isPresent();

      Process qmax =
          new ProcessBuilder(
                  List.of(
                      Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                      "--enable-native-access=ALL-UNNAMED",
                      "-cp",
                      System.getProperty("java.class.path"),
                      "dev.speechscale.cli.TtsBench",
                      "qmax",
                      "--model",
                      "kill",
                      "--state-dir",
                      state.toString(),
                      "--config",
                      config.toString(),
                      "--rungs",
                      "1,2",
                      "--warmup",
                      "0s",
                      "--hold",
                      "60s",
                      "--window",
                      "30s",
                      "--output",
                      dir.resolve("never.json").toString()))
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("qmax.log").toFile())
              .start();
      try {
        LocalEndpoint.await(
            "qmax to freeze scaling",
            Duration.ofSeconds(60),
            () -> {
              assertThat(qmax.isAlive()).as(Files.readString(dir.resolve("qmax.log"))).isTrue();
              return platform.scalingState("speech-kill").target().orElseThrow().suspended();
            },
            SuspendedState::anySuspended);
      } finally {
        qmax.destroyForcibly();
        qmax.waitFor(30, TimeUnit.SECONDS);
      }

      assertThat(platform.scalingState("speech-kill").target().orElseThrow().suspended())
          .as("kill -9 runs no exit path: the freeze stays")
          .isEqualTo(SuspendedState.ALL);
      Cli frozen = Cli.ttsBench(concat("drift", where));
      assertThat(frozen.exitCode()).isEqualTo(1);
      assertThat(frozen.out()).contains("ERROR suspended_flags").contains("tts-bench thaw");

      Cli thaw =
          Cli.ttsBench(
              "thaw",
              "--model",
              "kill",
              "--state-dir",
              state.toString(),
              "--config",
              config.toString(),
              "--desired",
              "1");
      assertThat(thaw.exitCode()).isZero();
      assertThat(thaw.out()).contains("resumed scaling");

      Cli clean = awaitClean(where);
      assertThat(clean.exitCode()).as(clean.out()).isZero();
      assertThat(clean.out()).contains("preflight ok");
    } finally {
      Cli.speechInfra("destroy", "--model", "kill", "--state-dir", state.toString());
    }
  }

  /** drift (bounded, 60 s) once capacity settled back (a freeze also pinned capacity). */
  private static Cli awaitClean(String[] where) throws Exception {
    return LocalEndpoint.awaitDrift(Duration.ofSeconds(60), concat("drift", where));
  }

  static String[] concat(String first, String[] rest) {
    String[] out = new String[rest.length + 1];
    out[0] = first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }
}
