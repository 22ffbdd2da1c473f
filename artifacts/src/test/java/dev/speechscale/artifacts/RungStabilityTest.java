package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A step's stability windows in the qmax artifact: additive, validated, round-tripped. */
class RungStabilityTest {
  private static final Path KOKORO_QMAX =
      Path.of("../examples/kokoro-82m/qmax-kokoro-82m-response-stream-g5xlarge-8b1b96bc.json");

  private static final RungStability UNSTABLE =
      new RungStability(
          3,
          10,
          28,
          false,
          100.0 / 7,
          null,
          List.of(
              new RungStability.Window(3, 8, 50, 10, 520.0, false),
              new RungStability.Window(8, 13, 40, 8, 610.0, false),
              new RungStability.Window(13, 18, 50, 10, 515.0, true),
              new RungStability.Window(18, 23, 40, 8, 640.0, true),
              new RungStability.Window(23, 28, 0, 0, null, true)));

  @Test
  void counted_theWindowsTheStepsFiguresCameFrom() {
    assertThat(UNSTABLE.counted())
        .extracting(RungStability.Window::startS)
        .containsExactly(13.0, 18.0, 23.0);
  }

  @Test
  void artifactWithStability_validatesAndRoundTrips(@TempDir Path dir) throws Exception {
    ObjectNode tree = (ObjectNode) ArtifactCodec.mapper().readTree(KOKORO_QMAX.toFile());
    JsonNode stability = ArtifactCodec.mapper().valueToTree(UNSTABLE);
    for (JsonNode step : tree.get("steps")) {
      ((ObjectNode) step).set("stability", stability);
    }
    String written = ArtifactCodec.mapper().writeValueAsString(tree);
    assertThat(written.replace(" ", ""))
        .contains("\"windows_required\":3")
        .contains("\"stability_pct\":10.0")
        .contains("\"max_hold_s\":28.0")
        .contains("\"throughput_spread_pct\":")
        .contains("\"start_s\":13.0");
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, written)).isEmpty();
    Path file = dir.resolve("qmax.json");
    Files.writeString(file, written);

    QmaxArtifact a = ArtifactCodec.readQmax(file);

    assertThat(a.steps()).allSatisfy(s -> assertThat(s.stability()).isEqualTo(UNSTABLE));
    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, ArtifactCodec.toJson(a))).isEmpty();
  }

  @Test
  void olderArtifact_readsWithoutStabilityAndWritesNoKey() {
    QmaxArtifact old = ArtifactCodec.readQmax(KOKORO_QMAX);

    assertThat(old.steps()).allSatisfy(s -> assertThat(s.stability()).isNull());
    assertThat(ArtifactCodec.toJson(old)).doesNotContain("\"stability\"");
  }

  @Test
  void schema_stabilityWithoutItsWindows_isRejected() throws Exception {
    ObjectNode tree = (ObjectNode) ArtifactCodec.mapper().readTree(KOKORO_QMAX.toFile());
    ObjectNode bad = ((ObjectNode) tree.get("steps").get(0)).putObject("stability");
    bad.put("windows_required", 3).put("stability_pct", 10).put("max_hold_s", 28);
    bad.put("stable", true);

    assertThat(
            ArtifactCodec.validate(
                ArtifactKind.QMAX, ArtifactCodec.mapper().writeValueAsString(tree)))
        .isNotEmpty();
  }
}
