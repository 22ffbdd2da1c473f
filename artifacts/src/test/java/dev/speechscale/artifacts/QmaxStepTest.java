package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A step built from its sections is the flat wire step of schema_version 1: every recorded step
 * rebuilt through {@link QmaxStep#of} and its {@code with...} methods writes the same JSON, and
 * what a step lacks is written as it always was.
 */
class QmaxStepTest {

  @Test
  void of_everyRecordedStepRebuiltFromItsSections_writesTheSameJson() throws IOException {
    List<Path> files;
    try (Stream<Path> examples = Files.walk(Path.of("..", "examples"));
        Stream<Path> testdata = Files.walk(Path.of("..", "testdata"));
        Stream<Path> measurements = Files.walk(Path.of("..", "measurements"))) {
      files =
          Stream.of(examples, testdata, measurements)
              .flatMap(s -> s)
              .filter(f -> f.getFileName().toString().matches("(qmax-.*|.*-qmax)\\.json"))
              .sorted()
              .toList();
    }
    List<QmaxStep> recorded = new ArrayList<>();
    List<QmaxStep> rebuilt = new ArrayList<>();
    for (Path file : files) {
      QmaxArtifact q = ArtifactCodec.readQmax(file);
      for (QmaxStep step : q.steps()) {
        recorded.add(step);
        rebuilt.add(rebuild(step, q.sloMs()));
      }
    }

    assertThat(files).hasSizeGreaterThanOrEqualTo(20);
    // the rebuilt steps cover every optional section, present and absent
    assertThat(recorded).anyMatch(s -> s.stability() != null).anyMatch(s -> s.stability() == null);
    assertThat(recorded).anyMatch(s -> s.breakdown() != null).anyMatch(s -> s.breakdown() == null);
    assertThat(recorded).anyMatch(s -> !s.isUsable()).anyMatch(s -> s.latencyHistogram() != null);
    assertThat(recorded).anyMatch(s -> s.hostCpuMs() != null).anyMatch(s -> s.hostCpuMs() == null);
    for (int i = 0; i < recorded.size(); i++) {
      assertThat(ArtifactCodec.toJsonLine(rebuilt.get(i)))
          .isEqualTo(ArtifactCodec.toJsonLine(recorded.get(i)));
      assertThat(rebuilt.get(i)).isEqualTo(recorded.get(i));
    }
  }

  @Test
  void of_sectionsOnly_writesTheAbsentFieldsAsNullAndNoBreakdownOrStability() {
    QmaxStep step =
        QmaxStep.of(
            new QmaxStep.Position(1, 2, 4),
            QmaxStep.Counts.of(12, 10, 2),
            new QmaxStep.Throughput(5.0, 3.5),
            new QmaxStep.ClientLatency(50.0, 95.0, 99.0, 60.0, 120.0),
            QmaxStep.Verdict.USABLE);

    assertThat(ArtifactCodec.toJsonLine(step))
        .isEqualTo(
            "{\"run_index\":1,\"step_index\":2,\"concurrency\":4,\"completed\":12,\"ok\":10,"
                + "\"rejected\":2,\"achieved_rps\":5.0,\"concurrency_mean\":3.5,"
                + "\"ttfab_p50_ms\":50.0,\"ttfab_p95_ms\":95.0,\"ttfab_p99_ms\":99.0,"
                + "\"latency_mean_ms\":60.0,\"latency_p95_ms\":120.0,"
                + "\"server_concurrency_peak\":null,\"server_concurrency_mean\":null,"
                + "\"usable\":true,\"unusable_reason\":null,\"meets_slo\":null,"
                + "\"ttfab_histogram\":null,\"latency_histogram\":null,\"chars\":null,"
                + "\"ttfab_drift_ms\":null}");
  }

  @Test
  void of_nothingSucceeded_percentilesNullAndTheReasonKept() {
    QmaxStep step =
        QmaxStep.of(
                new QmaxStep.Position(0, 0, 8),
                QmaxStep.Counts.of(3, 0, 3, 0),
                new QmaxStep.Throughput(0.0, 7.9),
                QmaxStep.ClientLatency.NONE,
                QmaxStep.Verdict.unusable("saturated"))
            .withMeetsSlo(1000);

    assertThat(step.ttfabP95Ms()).isNull();
    assertThat(step.latencyMeanMs()).isNull();
    assertThat(step.chars()).isZero();
    assertThat(step.isUsable()).isFalse();
    assertThat(step.unusableReason()).isEqualTo("saturated");
    assertThat(step.meetsSlo()).isFalse();
  }

  @Test
  void withMeetsSlo_usableStep_p95AgainstTheSlo() {
    QmaxStep step = usable(250.0);

    assertThat(step.withMeetsSlo(250).meetsSlo()).isTrue();
    assertThat(step.withMeetsSlo(249.9).meetsSlo()).isFalse();
  }

  @Test
  void with_eachOptionalSection_setsOnlyItsOwnFields() {
    StepBreakdown b = new StepBreakdown(10L, 1.0, 2.0, 40.0, 45.0, 10L, 2.5, null);
    RungStability s = new RungStability(1, 10.0, 60.0, true, 1.0, 2.0, List.of());
    QmaxStep step =
        usable(100.0)
            .withServerConcurrency(new QmaxStep.ServerConcurrency(3.0, 2.5))
            .withHistograms(
                QmaxStep.LatencyHistograms.of(Histograms.newMicros(), Histograms.newMicros()))
            .withTtfabDriftMs(-1.5)
            .withBreakdown(b)
            .withStability(s)
            .withMeetsSlo(200);

    assertThat(step.serverConcurrencyPeak()).isEqualTo(3.0);
    assertThat(step.serverConcurrencyMean()).isEqualTo(2.5);
    assertThat(Histograms.decode(step.ttfabHistogram()).getTotalCount()).isZero();
    assertThat(Histograms.decode(step.latencyHistogram()).getTotalCount()).isZero();
    assertThat(step.ttfabDriftMs()).isEqualTo(-1.5);
    assertThat(step.breakdown()).isEqualTo(b);
    assertThat(step.stability()).isEqualTo(s);
    assertThat(step.meetsSlo()).isTrue();
    assertThat(step.ttfabP95Ms()).isEqualTo(100.0);
    assertThat(step.chars()).isEqualTo(500L);
    // null takes a section away again, as a step that never had it
    assertThat(step.withServerConcurrency(null).withHistograms(null).serverConcurrencyPeak())
        .isNull();
    assertThat(
            ArtifactCodec.toJsonLine(
                step.withServerConcurrency(null)
                    .withHistograms(null)
                    .withTtfabDriftMs(null)
                    .withBreakdown(null)
                    .withStability(null)))
        .isEqualTo(ArtifactCodec.toJsonLine(usable(100.0).withMeetsSlo(200)));
  }

  @Test
  void position_negativeConcurrency_namesTheStep() {
    assertThatThrownBy(() -> new QmaxStep.Position(1, 3, -2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("(run 1, step 3, N -2) must not be negative");
  }

  @Test
  void counts_okAndRejectedOverCompleted_refused() {
    assertThatThrownBy(() -> QmaxStep.Counts.of(5, 4, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("completed 5, ok 4, rejected 2")
        .hasMessageContaining("ok and rejected are parts of completed");
  }

  @Test
  void clientLatency_partlyMeasured_refusedNamingNone() {
    assertThatThrownBy(() -> new QmaxStep.ClientLatency(1.0, null, 3.0, 4.0, 5.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("p95 null")
        .hasMessageContaining("ClientLatency.NONE");
  }

  @Test
  void verdict_reasonOnAUsableStep_refused() {
    assertThatThrownBy(() -> new QmaxStep.Verdict(true, "client-bound"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("usable true, reason client-bound")
        .hasMessageContaining("reason exactly when the step is unusable");
  }

  private static QmaxStep usable(double p95Ms) {
    return QmaxStep.of(
        new QmaxStep.Position(0, 1, 2),
        QmaxStep.Counts.of(50, 50, 0, 500),
        new QmaxStep.Throughput(10.0, 2.0),
        new QmaxStep.ClientLatency(p95Ms / 2, p95Ms, p95Ms * 1.1, p95Ms / 2, p95Ms),
        QmaxStep.Verdict.USABLE);
  }

  /** {@code s} built again from its figures, section by section, as a measurement would. */
  private static QmaxStep rebuild(QmaxStep s, double sloMs) {
    QmaxStep.Counts counts =
        s.chars() == null
            ? QmaxStep.Counts.of(s.completed(), s.ok(), s.rejected())
            : QmaxStep.Counts.of(s.completed(), s.ok(), s.rejected(), s.chars());
    QmaxStep step =
        QmaxStep.of(
            new QmaxStep.Position(s.runIndex(), s.stepIndex(), s.concurrency()),
            counts,
            new QmaxStep.Throughput(s.achievedRps(), s.concurrencyMean()),
            new QmaxStep.ClientLatency(
                s.ttfabP50Ms(),
                s.ttfabP95Ms(),
                s.ttfabP99Ms(),
                s.latencyMeanMs(),
                s.latencyP95Ms()),
            new QmaxStep.Verdict(s.isUsable(), s.unusableReason()));
    if (s.serverConcurrencyPeak() != null && s.serverConcurrencyMean() != null) {
      step =
          step.withServerConcurrency(
              new QmaxStep.ServerConcurrency(s.serverConcurrencyPeak(), s.serverConcurrencyMean()));
    }
    if (s.ttfabHistogram() != null && s.latencyHistogram() != null) {
      step =
          step.withHistograms(
              new QmaxStep.LatencyHistograms(s.ttfabHistogram(), s.latencyHistogram()));
    }
    return step.withTtfabDriftMs(s.ttfabDriftMs())
        .withBreakdown(s.breakdown())
        .withStability(s.stability())
        .withHostCpuMs(s.hostCpuMs())
        .withMeetsSlo(sloMs);
  }
}
