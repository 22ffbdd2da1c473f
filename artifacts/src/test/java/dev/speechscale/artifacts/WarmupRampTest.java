package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.simulator.ColdStart;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class WarmupRampTest {
  @Test
  void of_freshInstance_recordsBucketsInMsAndGivesTheColdStart() {
    // 16 requests: 0-3 at 0.2 s, 4-7 at 0.15 s, the warm half 8-15 at 0.1 s
    double[] s = new double[16];
    Arrays.fill(s, 0.1);
    Arrays.fill(s, 0, 4, 0.2);
    Arrays.fill(s, 4, 8, 0.15);

    WarmupRamp r = WarmupRamp.of(4, s);

    assertThat(r.concurrency()).isEqualTo(4);
    assertThat(r.requests()).isEqualTo(16);
    assertThat(r.referenceServiceMs()).isCloseTo(100, within(1e-9));
    assertThat(r.buckets()).hasSize(2);
    assertThat(r.buckets().get(0).untilRequest()).isEqualTo(4);
    assertThat(r.buckets().get(0).serviceMsMean()).isCloseTo(200, within(1e-9));
    assertThat(r.buckets().get(1).serviceMsMean()).isCloseTo(150, within(1e-9));
    ColdStart c = r.coldStart("qmax warm-up");
    assertThat(c.factor(0)).isCloseTo(2.0, within(1e-9));
    assertThat(c.factor(5)).isCloseTo(1.5, within(1e-9));
    assertThat(c.factor(8)).isEqualTo(1.0);
  }

  @Test
  void coldStart_warmInstance_isNone() {
    double[] s = new double[40];
    Arrays.fill(s, 0.1);

    assertThat(WarmupRamp.of(4, s).coldStart("x")).isEqualTo(ColdStart.NONE);
  }
}
