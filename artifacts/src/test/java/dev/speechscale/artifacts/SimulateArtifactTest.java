package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.Traffic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateArtifactTest {
  @TempDir Path dir;

  private static SimulateArtifact kokoroFixedFleet(Double price) {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);
    InstanceModel m =
        InstanceModel.fromMeasurement(
            q.measurement(Examples.QMAX.toString()),
            50,
            Duration.ofSeconds(56),
            Duration.ofSeconds(213));
    Traffic t = Traffic.step(60, 10, Duration.ofSeconds(300));
    FleetSimulator.Options o = new FleetSimulator.Options(3000, Duration.ZERO, 9);
    List<PolicyResult> results =
        List.of(
            FleetSimulator.run(m, t, new Policy.Fixed(1), o, Progress.none()),
            FleetSimulator.run(m, t, new Policy.Fixed(4), o, Progress.none()));
    return SimulateArtifacts.build(
        new SimulateArtifacts.Sources(
            "kokoro-82m",
            "speech-kokoro-82m",
            3000,
            9,
            0,
            price,
            t,
            "pattern",
            m,
            "ttotal test",
            List.of(PlanArtifacts.source("qmax.json", q)),
            results,
            new Provenance("h", "j", "o", "tts-bench simulate", Map.of()),
            Instant.parse("2026-12-01T00:00:00Z")));
  }

  @Test
  void write_builtFromARun_matchesTheSchemaAndReadsBackEqual() throws IOException {
    SimulateArtifact a = kokoroFixedFleet(1.408);
    Path file = dir.resolve(a.defaultFileName());

    ArtifactCodec.write(file, a);

    assertThat(ArtifactCodec.validate(ArtifactKind.SIMULATE, Files.readString(file))).isEmpty();
    assertThat(ArtifactCodec.readSimulate(file)).isEqualTo(a);
    assertThat(a.policies().getFirst().cost())
        .isEqualTo(a.policies().getFirst().instanceHours() * 1.408);
    assertThat(a.instance().slots()).isEqualTo(1);
  }

  @Test
  void build_noPrice_hasNoCost() {
    assertThat(kokoroFixedFleet(null).policies()).allMatch(p -> p.cost() == null);
  }

  @Test
  void build_sameInputs_sameJsonByteForByte() {
    assertThat(ArtifactCodec.toJson(kokoroFixedFleet(null)))
        .isEqualTo(ArtifactCodec.toJson(kokoroFixedFleet(null)));
  }

  @Test
  void read_planFileAsSimulate_namesTheWriter() throws IOException {
    Path file = dir.resolve("x.json");
    Files.writeString(file, "{\"schema_version\": 1, \"kind\": \"plan\"}");

    assertThatThrownBy(() -> ArtifactCodec.readSimulate(file))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("is a \"plan\" artifact, not a \"simulate\" one")
        .hasMessageContaining("written by `tts-bench simulate`");
  }
}
