package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.loadgen.LadderHooks;
import dev.speechscale.loadgen.RungReport;
import dev.speechscale.loadgen.RungVerdict;
import dev.speechscale.loadgen.WindowStats;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RungHostSpeedsTest {
  private static final long T0 = 1_796_000_000_000L;

  /** Host 0 (in service) fast for 4 s, slow for 4 s, then no sample; host 1 always slow. */
  private static final HostSpeedLog LOG =
      new HostSpeedLog(
          "two cores",
          T0,
          List.of(
              Arrays.asList(16.0, 16.0, 16.0, 16.0, 24.0, 24.0, 24.0, 24.0, null, null),
              Arrays.asList(30.0, 30.0, 30.0, 30.0, 30.0, 30.0, 30.0, 30.0, 30.0, 30.0)),
          0,
          1);

  /** A rung whose window is [fromMs, toMs] after T0 (nothing completed: only its times matter). */
  private static RungReport rung(int step, int n, long fromMs, long toMs) {
    return new RungReport(
        0,
        step,
        RungReport.Phase.COARSE,
        n,
        Instant.ofEpochMilli(T0 + fromMs),
        Instant.ofEpochMilli(T0 + toMs),
        WindowStats.compute(List.of(), n, 0, 1_000_000_000L),
        0,
        List.of(),
        (LadderHooks.ServerConcurrency) null,
        new RungVerdict.NothingCompleted(n, 0),
        Duration.ofSeconds(4),
        null);
  }

  @Test
  void eachStepTakesTheInServiceHostsMeanOverItsOwnWindow() {
    List<RungReport> reports =
        List.of(
            rung(0, 1, 0, 3_999),
            rung(1, 2, 4_000, 7_999),
            rung(2, 4, 2_000, 5_999),
            rung(3, 8, 8_000, 9_999));
    List<QmaxStep> steps = reports.stream().map(r -> r.toStep(1000)).toList();

    List<QmaxStep> out = RungHostSpeeds.of(steps, reports, LOG);

    assertThat(out)
        .extracting(QmaxStep::hostCpuMs)
        .as("fast, slow, half and half, and a rung whose seconds have no sample")
        .containsExactly(16.0, 24.0, 20.0, null);
    assertThat(out.get(1).achievedRps()).isEqualTo(steps.get(1).achievedRps());
  }

  @Test
  void aStepWithoutItsReport_isLeftWithoutAHostSpeed() {
    RungReport only = rung(0, 1, 0, 3_999);
    List<QmaxStep> steps = List.of(only.toStep(1000), rung(1, 2, 4_000, 7_999).toStep(1000));

    assertThat(RungHostSpeeds.of(steps, List.of(only), LOG))
        .extracting(QmaxStep::hostCpuMs)
        .containsExactly(16.0, null);
  }
}
