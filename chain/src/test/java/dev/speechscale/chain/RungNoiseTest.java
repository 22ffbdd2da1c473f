package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungCheck;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The order-statistic interval, and how rung checks bound Q_max. */
class RungNoiseTest {

  @Test
  void interval_hundredSamples_spansTheRanksAroundTheNinetyFifth() {
    double[] v = IntStream.rangeClosed(1, 100).asDoubleStream().toArray();
    assertThat(Percentiles95.nearestRank(v)).isEqualTo(95.0);
    // 95 ± 1.96 √4.75 = 90.73 .. 99.27 → ranks 90 and 100
    assertThat(Percentiles95.interval(v)).containsExactly(90.0, 100.0);
  }

  @Test
  void interval_tooFewSamplesForAnUpperRank_isNull() {
    double[] v = IntStream.rangeClosed(1, 40).asDoubleStream().toArray();
    assertThat(Percentiles95.interval(v)).isNull();
  }

  @Test
  void sample_onLinux_readsTheMachineAndThisProcess() {
    CpuSample s = CpuSample.now();
    assertThat(s.totalTicks()).isGreaterThanOrEqualTo(s.busyTicks());
    assertThat(s.processCpuNanos()).isPositive();
  }

  @Test
  void qMaxInterval_rungsWhoseIntervalsStraddleTheSlo_widenTheRange() {
    QmaxArtifact q = Recorded.quickstartQmax();
    double slo = q.sloMs();
    java.util.List<RungCheck> checks =
        q.steps().stream()
            .map(s ->
                check(
                    s,
                    s.concurrency() <= q.qMax() - 2
                        ? slo * 0.5
                        : s.concurrency() <= q.qMax() + 1 ? slo : slo * 2))
            .toList();
    QmaxArtifact checked = q.withRungChecks(checks);
    assertThat(checked.qMaxInterval().low()).isLessThanOrEqualTo(q.qMax() - 2);
    assertThat(checked.qMaxInterval().high()).isGreaterThanOrEqualTo(q.qMax());
    assertThat(QmaxTrust.lines(checked)).first().asString().startsWith("Q_max range ");
  }

  @Test
  void lines_aBusyRung_isNamedWithWhatLimitedIt() {
    QmaxArtifact q = Recorded.quickstartQmax();
    QmaxStep s = q.steps().get(0);
    RungCheck busy =
        new RungCheck(
            s.runIndex(),
            s.stepIndex(),
            s.concurrency(),
            100L,
            10.0,
            10.0,
            100.0,
            100.0,
            true,
            100.0,
            90.0,
            110.0,
            0.0,
            1.9,
            0.2,
            0.5,
            1.2,
            true,
            false,
            "machine busy: 1.20 CPUs of other work");
    assertThat(QmaxTrust.lines(q.withRungChecks(java.util.List.of(busy))))
        .anyMatch(l -> l.contains("N=" + s.concurrency()) && l.contains("machine busy"))
        .anyMatch(l -> l.startsWith("1 of 1 rungs measured more than the endpoint"));
  }

  /** A trustworthy check whose p95 interval is centred on {@code p95} (±20 %). */
  private static RungCheck check(QmaxStep s, double p95) {
    return new RungCheck(
        s.runIndex() == null ? 0 : s.runIndex(),
        s.stepIndex() == null ? 0 : s.stepIndex(),
        s.concurrency(),
        100L,
        10.0,
        10.0,
        p95,
        p95,
        true,
        p95,
        p95 * 0.8,
        p95 * 1.2,
        0.0,
        1.0,
        0.1,
        0.5,
        0.0,
        false,
        false,
        null);
  }
}
