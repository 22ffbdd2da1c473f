package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.StepBreakdown;
import org.junit.jupiter.api.Test;

/** Queue against engine per rung, as qmax prints it. */
class QmaxBreakdownTest {

  @Test
  void lines_stepsWithABreakdown_oneRowEachSortedByN() {
    var a =
        Recorded.ladder(
            4,
            step(4, 310.0, new StepBreakdown(40L, 180.0, 240.5, 42.0, 51.25, 40L, 2.41, null)),
            step(1, 60.0, new StepBreakdown(12L, 0.1, 0.2, 40.0, 48.0, 12L, 2.4, null)),
            step(2, 90.0, null));

    assertThat(QmaxBreakdown.lines(a))
        .containsExactly(
            "server breakdown per rung (p50 / p95 ms): queue = waiting for an execution slot,"
                + " engine = the engine's time to its first chunk",
            "  rung         queue p50 / p95    engine p50 / p95       TTFAB p95    audio/req",
            "  N=1                0.1 / 0.2         40.0 / 48.0            60.0       2.40 s",
            "  N=4            180.0 / 240.5         42.0 / 51.3           310.0       2.41 s");
  }

  @Test
  void lines_noStepCarriesABreakdown_nothing() {
    assertThat(QmaxBreakdown.lines(Recorded.kokoroQmax())).isEmpty();
  }

  private static QmaxStep step(int n, double p95Ms, StepBreakdown b) {
    return QmaxStep.of(
            new QmaxStep.Position(0, 0, n),
            QmaxStep.Counts.of(10, 10, 0),
            new QmaxStep.Throughput(1.0, n),
            new QmaxStep.ClientLatency(p95Ms, p95Ms, p95Ms, p95Ms, p95Ms),
            QmaxStep.Verdict.USABLE)
        .withBreakdown(b);
  }
}
