package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateArtifact.Result;
import dev.speechscale.loadgen.OpenLoopResult;
import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** How {@code live_surge} judges its open-loop phase. */
class LiveSurgeTest {
  private static final Duration PHASE = Duration.ofSeconds(30);

  @Test
  void judge_heldTheSloWithNothingLost_isOk() {
    ValidateArtifact.Check c = LiveSurge.judge(phase(812.34, 0, 0), 1.5, PHASE, 1000, false);
    assertThat(c.result()).isEqualTo(Result.OK);
    assertThat(c.actual())
        .isEqualTo("p95 812.3 ms from the intended send time, 0 rejected, 0 dropped of 300");
    assertThat(c.detail()).isEqualTo("a 1.500x surge held the SLO for 30 s");
  }

  @Test
  void judge_oneRejectionAndPredicted_warns() {
    ValidateArtifact.Check c = LiveSurge.judge(phase(500.0, 1, 0), 2, PHASE, 1000, true);
    assertThat(c.result()).isEqualTo(Result.WARN);
    assertThat(c.detail()).contains("as the plan's surge_survival finding predicted");
  }

  @Test
  void judge_overTheSloAndNotPredicted_fails() {
    ValidateArtifact.Check c = LiveSurge.judge(phase(1000.5, 0, 0), 2, PHASE, 1000, false);
    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.detail()).isEqualTo("not absorbed, and the plan did not predict it");
  }

  @Test
  void judge_noSuccessfulRequest_failsWithNoP95() {
    ValidateArtifact.Check c = LiveSurge.judge(phase(null, 0, 3), 2, PHASE, 1000, false);
    assertThat(c.result()).isEqualTo(Result.FAIL);
    assertThat(c.actual()).startsWith("p95 n/a ms").endsWith("3 dropped of 300");
  }

  private static OpenLoopResult.PhaseResult phase(Double p95Ms, long rejected, long dropped) {
    Histogram h = new Histogram(3);
    return new OpenLoopResult.PhaseResult(
        0,
        "surge",
        10.0,
        PHASE,
        300,
        300 - dropped,
        dropped,
        0,
        0.0,
        300 - dropped - rejected,
        rejected,
        Map.of(),
        10.0,
        p95Ms,
        p95Ms,
        p95Ms,
        p95Ms,
        p95Ms,
        p95Ms,
        h,
        h,
        h);
  }
}
