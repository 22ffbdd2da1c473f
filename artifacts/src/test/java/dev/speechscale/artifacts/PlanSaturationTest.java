package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.simulator.InstanceModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** X_sat from the plan's X(C_scale_max) when it has one. */
class PlanSaturationTest {
  private static final Path KOKORO = Path.of("../examples/kokoro-82m/plan-kokoro-82m.json");

  @Test
  void of_publishedKokoroPlan_isItsXAtCScaleMax() {
    PlanArtifact plan = ArtifactCodec.readPlan(KOKORO);

    assertThat(PlanSaturation.of(plan))
        .isEqualTo(new InstanceModel.Saturation.PlanPoint(37.5, 17.8875));
  }

  @Test
  void of_planWithoutXAtCScaleMax_isThePlateau(@TempDir Path dir) throws Exception {
    String json = Files.readString(KOKORO);
    String field = "\"throughput_at_c_scale_max_rps\" : 17.8875";
    assertThat(json).contains(field);
    Path file = dir.resolve("plan.json");
    Files.writeString(file, json.replace(field, "\"throughput_at_c_scale_max_rps\" : null"));

    assertThat(PlanSaturation.of(ArtifactCodec.readPlan(file)))
        .isEqualTo(new InstanceModel.Saturation.Plateau());
  }
}
