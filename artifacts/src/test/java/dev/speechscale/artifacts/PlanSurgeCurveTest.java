package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.capacity.SurgeCurve;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code surge_curve}, additive: old plans read without it, new ones carry and validate it. */
class PlanSurgeCurveTest {
  static final Path OLD_PLAN =
      Path.of("..", "testdata", "quickstart-2026-12-01-2232", "plan-quickstart.json");

  @TempDir Path dir;

  @Test
  void readPlan_writtenBeforeTheCurve_hasNoneAndWritesNone() {
    PlanArtifact p = ArtifactCodec.readPlan(OLD_PLAN);

    assertThat(p.surgeCurve()).isNull();
    assertThat(ArtifactCodec.toJson(p)).doesNotContain("surge_curve");
  }

  @Test
  void readPlan_withACurve_readsItBackAndWritesJsonTheSchemaAccepts() throws IOException {
    String old = Files.readString(OLD_PLAN, StandardCharsets.UTF_8).strip();
    String json =
        old.substring(0, old.length() - 1)
            + ",\"surge_curve\":[{\"c_scale_max\":1.0,\"shed_probability\":0.0},"
            + "{\"c_scale_max\":15.75,\"shed_probability\":1.0}]}";
    Path file = dir.resolve("plan-quickstart.json");
    Files.writeString(file, json, StandardCharsets.UTF_8);

    PlanArtifact p = ArtifactCodec.readPlan(file);

    assertThat(p.surgeCurve())
        .containsExactly(new SurgeCurve.Point(1.0, 0.0), new SurgeCurve.Point(15.75, 1.0));
    String written = ArtifactCodec.toJson(p);
    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, written)).isEmpty();
    assertThat(written).contains("\"surge_curve\"").contains("\"c_scale_max\" : 15.75");
  }

  @Test
  void validate_curvePointAboveCertainty_isRefused() throws IOException {
    String old = Files.readString(OLD_PLAN, StandardCharsets.UTF_8).strip();
    String json =
        old.substring(0, old.length() - 1)
            + ",\"surge_curve\":[{\"c_scale_max\":1.0,\"shed_probability\":1.5}]}";

    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, json)).isNotEmpty();
  }
}
