package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How {@code live_scale_out} reports what it saw. */
class LiveScaleOutTest {
  private static final Instant BEGAN = Instant.parse("2026-12-02T05:00:00Z");

  @Test
  void judge_scaledAfterTwelveAndAHalfSeconds_isOkWithTheTime() {
    ValidateArtifact.Check c =
        LiveScaleOut.judge(Duration.ofSeconds(90), BEGAN, BEGAN.plusMillis(12_500));
    assertThat(c.result()).isEqualTo(Result.OK);
    assertThat(c.expected()).isEqualTo("within 90 s");
    assertThat(c.actual()).isEqualTo("12.5 s");
  }

  @Test
  void judge_noScaleOut_fails() {
    ValidateArtifact.Check c = LiveScaleOut.judge(Duration.ofSeconds(90), BEGAN, null);
    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.actual()).isEqualTo("none within 90 s");
  }
}
