package dev.speechscale.loadgen;

import static dev.speechscale.loadgen.Events.MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.Histograms;
import dev.speechscale.artifacts.QmaxStep;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A measured rung as the qmax artifact records it. */
class RungReportTest {

  @Test
  void toStep_usableWatchedRung_carriesEveryFigureOfItsWindow() {
    WindowStats stats =
        WindowStats.compute(
            List.of(
                Events.ok(0, 0, 20, 100),
                Events.ok(1, 10, 30, 120),
                Events.ok(0, 100, 40, 200),
                Events.ok(1, 120, 50, 250),
                Events.rejected(0, 200, 210)),
            2,
            0,
            1000 * MS);
    RungReport r =
        report(stats, new LadderHooks.ServerConcurrency(2.0, 1.75), new RungVerdict.Usable());

    QmaxStep step = r.toStep(1000);

    assertThat(step.runIndex()).isEqualTo(1);
    assertThat(step.stepIndex()).isEqualTo(3);
    assertThat(step.concurrency()).isEqualTo(2);
    assertThat(List.of(step.completed(), step.ok(), step.rejected(), step.chars()))
        .containsExactly(5L, 4L, 1L, 40L);
    assertThat(step.achievedRps()).isEqualTo(stats.achievedRps());
    assertThat(step.concurrencyMean()).isEqualTo(stats.concurrencyMean());
    assertThat(
            List.of(
                step.ttfabP50Ms(),
                step.ttfabP95Ms(),
                step.ttfabP99Ms(),
                step.latencyMeanMs(),
                step.latencyP95Ms()))
        .containsExactly(
            stats.ttfabP50Ms(),
            stats.ttfabP95Ms(),
            stats.ttfabP99Ms(),
            stats.latencyMeanMs(),
            stats.latencyP95Ms());
    assertThat(step.serverConcurrencyPeak()).isEqualTo(2.0);
    assertThat(step.serverConcurrencyMean()).isEqualTo(1.75);
    assertThat(step.usable()).isTrue();
    assertThat(step.unusableReason()).isNull();
    assertThat(step.meetsSlo()).isTrue();
    assertThat(r.toStep(stats.ttfabP95Ms() - 0.001).meetsSlo()).isFalse();
    assertThat(Histograms.decode(step.ttfabHistogram()).getTotalCount()).isEqualTo(4);
    assertThat(Histograms.decode(step.latencyHistogram()).getTotalCount()).isEqualTo(4);
    assertThat(step.ttfabDriftMs()).isEqualTo(stats.ttfabDriftMs());
    assertThat(step.breakdown()).isNull();
    assertThat(step.stability()).isNull();
  }

  @Test
  void toStep_nothingSucceededUnwatched_leavesFiguresOutAndKeepsTheReason() {
    WindowStats stats =
        WindowStats.compute(
            List.of(Events.rejected(0, 0, 10), Events.failed(1, 0, 20)), 2, 0, 1000 * MS);
    RungVerdict verdict = new RungVerdict.NothingCompleted(2, 0);

    QmaxStep step = report(stats, null, verdict).toStep(1000);

    assertThat(ArtifactCodec.toJsonLine(step))
        .contains("\"ttfab_p50_ms\":null,\"ttfab_p95_ms\":null,\"ttfab_p99_ms\":null")
        .contains("\"server_concurrency_peak\":null,\"server_concurrency_mean\":null")
        .contains("\"usable\":false,\"unusable_reason\":\"" + verdict.reason() + "\"")
        .contains("\"meets_slo\":false,\"ttfab_histogram\":null,\"latency_histogram\":null")
        .contains("\"chars\":0,\"ttfab_drift_ms\":null}")
        .doesNotContain("\"breakdown\"")
        .doesNotContain("\"stability\"");
  }

  private static RungReport report(
      WindowStats stats, LadderHooks.ServerConcurrency server, RungVerdict verdict) {
    return new RungReport(
        1,
        3,
        RungReport.Phase.COARSE,
        2,
        Instant.EPOCH,
        Instant.EPOCH.plusSeconds(1),
        stats,
        0,
        List.of(),
        server,
        verdict,
        Duration.ofSeconds(2),
        null);
  }
}
