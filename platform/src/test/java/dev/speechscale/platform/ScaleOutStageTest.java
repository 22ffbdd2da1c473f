package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stage list's wire names are what artifacts and container logs have always carried. */
class ScaleOutStageTest {

  @Test
  void wireNames_inOrder_areTheArtifactStrings() {
    assertThat(ScaleOutStage.wireNames(List.of(ScaleOutStage.values())))
        .containsExactly(
            "desired_set",
            "instance_logging",
            "container_started",
            "framework_init",
            "weights_ready",
            "warmup_done",
            "ready",
            "in_service",
            "traffic_recovered");
  }

  @Test
  void containerStages_areTheFourMarkersInOrder() {
    assertThat(StageMarker.STAGES)
        .containsExactly("framework_init", "weights_ready", "warmup_done", "ready");
  }

  @Test
  void ofWireName_unknownName_isEmpty() {
    assertThat(ScaleOutStage.ofWireName("warmup_done")).contains(ScaleOutStage.WARMUP_DONE);
    assertThat(ScaleOutStage.ofWireName("WARMUP_DONE")).isEmpty();
  }
}
