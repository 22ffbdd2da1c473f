package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Start-up delays for the simulator: one per ttotal run. */
class StartupDelaySamplesTest {
  private static final Path RUNS3 = Path.of("../testdata/ttotal-runs/ttotal-runs3.json");
  private static final Path KOKORO =
      Path.of("../examples/kokoro-82m/ttotal-kokoro-82m-force-desired-g5xlarge-8b1b96bc.json");

  @Test
  void of_ttotalWithRuns_takesEveryRunNotOnlyTheSlowest() {
    StartupDelaySamples s =
        StartupDelaySamples.of(
            List.of(
                new StartupDelaySamples.Input(ArtifactCodec.readTtotal(RUNS3), RUNS3.toString())));

    // the three runs' desired_set -> in_service, read from the artifact's runs[].timeline
    assertThat(s.delays().samples())
        .containsExactly(
            Duration.ofNanos(29_844_687_792L),
            Duration.ofNanos(4_962_369_707L),
            Duration.ofNanos(7_060_594_124L));
    assertThat(s.source())
        .isEqualTo(
            "ttotal-runs3.json: desired_set -> in_service of its 3 runs = 29.844, 4.962, 7.060 s"
                + " (each new instance draws one of the 3, seeded)");
  }

  @Test
  void of_singleRunArtifacts_oneSampleEach() {
    TtotalArtifact k = ArtifactCodec.readTtotal(KOKORO);

    StartupDelaySamples s =
        StartupDelaySamples.of(
            List.of(
                new StartupDelaySamples.Input(k, "a.json"),
                new StartupDelaySamples.Input(k, "b.json")));

    assertThat(s.delays().samples()).hasSize(2).containsOnly(StartupDelaySamples.delay(k, "a"));
  }

  @Test
  void of_nothing_isRefusedWithTheFlag() {
    assertThatThrownBy(() -> StartupDelaySamples.of(List.of()))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("--ttotal FILE");
  }
}
