package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ScalingMetricChoice;
import dev.speechscale.artifacts.ValidateArtifact;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * validate --live on a plan that tracks InvocationsPerInstance (a search's choice): the checks that
 * drive the target as concurrent requests say they were not run, instead of driving 432 requests
 * per instance per minute as 432 concurrent streams (the quickstart of 2026-12-07 21:47 drove 692
 * and 866 and failed both).
 */
class ValidateLiveNotRunTest {
  @Test
  void notRun_isAWarningThatNamesTheMetricAndTheTarget() {
    List<String> progress = new ArrayList<>();
    ValidateArtifact.Check c =
        ValidateLive.notRun(
            "live_scale_out", ScalingMetricChoice.INVOCATIONS_PER_INSTANCE, 432.604, progress::add);

    assertThat(c.name()).isEqualTo("live_scale_out");
    assertThat(c.result()).isEqualTo(ValidateArtifact.Result.WARN);
    assertThat(c.detail())
        .contains("not run: the plan tracks invocations_per_instance at 432.604")
        .contains("tts-bench simulate and search predict this policy");
    assertThat(progress).singleElement().asString().startsWith("live: live_scale_out not run");
  }
}
