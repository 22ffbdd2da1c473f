package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.loadgen.LadderListener;
import dev.speechscale.platform.NanoClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart composition's first steps and its teardown: it deploys the measurement config,
 * runs drift, refuses to measure a drifted endpoint, and destroys the endpoint on the way out.
 */
class QuickstartRunTest {

  @Test
  void run_driftedEndpoint_refusesBeforeMeasuringAndStillDestroys(@TempDir Path dir)
      throws Exception {
    // deployed with the recorded plan's policies, while the measurement config has no scaling
    FakePlatform platform = FakePlatform.deployedBehind(Recorded.quickstartPlan());
    List<String> calls = new ArrayList<>();
    QuickstartRun.Deployments deployments =
        new QuickstartRun.Deployments() {
          @Override
          public String deploy(EndpointConfig model, Path configFile, Path planFile) {
            calls.add("deploy " + model.endpointName() + " from " + configFile.getFileName());
            return "no scaling";
          }

          @Override
          public void destroy(String endpoint) {
            calls.add("destroy " + endpoint);
          }
        };
    StringWriter err = new StringWriter();
    List<QuickstartRun.Result> finished = new ArrayList<>();

    assertThatThrownBy(() ->
            QuickstartRun.run(
                platform,
                deployments,
                new QuickstartRun.Options(
                    "quickstart",
                    dir,
                    Duration.ofMillis(1000),
                    new QuickstartRun.Ladder(
                        List.of(1, 2),
                        Duration.ofSeconds(8),
                        Duration.ofSeconds(5),
                        Duration.ZERO,
                        null),
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(8),
                    QuickstartRun.Local.DEFAULT),
                NanoClock.SYSTEM,
                LadderListener.NONE,
                new PrintWriter(err, true),
                finished::add))
        .isInstanceOf(ChainException.class)
        .hasMessageStartingWith("drift found errors before measuring: ");

    assertThat(calls)
        .containsExactly(
            "deploy speech-quickstart from endpoints.yaml", "destroy speech-quickstart");
    assertThat(finished).isEmpty();
    assertThat(err.toString())
        .startsWith(
            "[1/10] deploy speech-quickstart (flite, local.500mcpu, unbounded queue, no scaling"
                + " yet)\n[2/10] drift: is it deployed as configured?\n")
        .endsWith("destroying speech-quickstart\n");
    assertThat(Files.readString(dir.resolve("endpoints.yaml")))
        .contains("queue_max_depth: 0")
        .contains("ttfab_slo_ms: 1000");
    // read as a tree: the drift schema admits only the shipped platforms' names, not the fake's
    var drift = ArtifactCodec.mapper().readTree(dir.resolve("drift-quickstart.json").toFile());
    assertThat(drift.get("clean").asBoolean()).isFalse();
    assertThat(drift.get("platform").asString()).isEqualTo("fake");
  }
}
