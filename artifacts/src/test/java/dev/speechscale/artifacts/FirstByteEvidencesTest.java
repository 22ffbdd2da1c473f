package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.simulator.FirstByte;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.StartupDelays;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FirstByteEvidencesTest {
  private static final Path QUICKSTART =
      Path.of(
          "..",
          "testdata",
          "quickstart-2026-11-30-1140",
          "qmax-quickstart-http-stream-local500mcpu-04a8ae75.json");

  @Test
  void of_recordedLadder_givesEveryUsableRungsMeanTtfabAndTheLowestRungsShape() {
    QmaxArtifact q = ArtifactCodec.readQmax(QUICKSTART);

    Optional<InstanceModel.FirstByteEvidence> e = FirstByteEvidences.of(q);

    assertThat(e).isPresent();
    assertThat(e.get().rungs())
        .extracting(FirstByte.Rung::concurrency)
        .containsExactly(1, 2, 4, 8, 16, 32, 12, 14, 13);
    FirstByte.Rung one = e.get().rungs().getFirst();
    assertThat(one.achievedRps()).isEqualTo(14.4);
    // the shape is the N=1 TTFAB distribution: its mean is that rung's mean TTFAB
    assertThat(e.get().lowestRungTtfab().meanSeconds())
        .isCloseTo(one.ttfabMeanSeconds(), within(0.002));
    assertThat(e.get().lowestRungTtfab().origin())
        .isEqualTo("measured TTFAB histogram at concurrency 1");
  }

  @Test
  void of_ladderWithoutHistograms_isEmpty() {
    assertThat(FirstByteEvidences.of(ArtifactCodec.readQmax(Examples.QMAX))).isEmpty();
  }

  @Test
  void fromMeasurement_recordedLadder_firstByteGrowsWithTheRequestsHeldAndXSatIsThePlateau() {
    QmaxArtifact q = ArtifactCodec.readQmax(QUICKSTART);

    InstanceModel m =
        InstanceModel.fromMeasurement(
            q.measurement(QUICKSTART.toString()),
            FirstByteEvidences.of(q),
            12,
            Duration.ofSeconds(56),
            StartupDelays.fixed(Duration.ofSeconds(8)));

    // rungs at N >= 2: 14.8, 15.0, 15.4, 15.2, 15.4, 14.0, 13.2, 12.4 -> median (14.8 + 15.0)/2
    assertThat(m.saturatedPerSecond()).isCloseTo(14.9, within(1e-9));
    assertThat(m.firstByte()).isInstanceOf(FirstByte.ByConcurrency.class);
    assertThat(((FirstByte.ByConcurrency) m.firstByte()).means())
        .allMatch(p -> p.meanSeconds() > 0);
  }

  @Test
  void startupDelaySamples_twoArtifacts_drawsFromBothAndNamesThem() {
    TtotalArtifact t = ArtifactCodec.readTtotal(Examples.TTOTAL);

    StartupDelaySamples s =
        StartupDelaySamples.of(
            List.of(
                new StartupDelaySamples.Input(t, "dir/a.json"),
                new StartupDelaySamples.Input(t, "b.json")));

    assertThat(s.delays().samples()).hasSize(2);
    assertThat(s.source())
        .startsWith("a.json: desired_set -> in_service = ")
        .contains("; b.json: ")
        .endsWith("(each new instance draws one of the 2, seeded)");
  }
}
