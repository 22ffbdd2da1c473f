package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ttotal --runs N}: every run kept, the spread derived, a statistic picks the run. */
class TtotalRunsTest {
  private static final Instant T0 = Instant.parse("2026-12-01T18:00:00Z");

  /** One single-run artifact: desired_set at T0, in_service at 60 %, recovered at {@code s}. */
  private static TtotalArtifact oneRun(double seconds, boolean recovered) {
    long ms = Math.round(seconds * 1000);
    List<TtotalArtifact.TimelineEntry> timeline =
        recovered
            ? List.of(
                new TtotalArtifact.TimelineEntry("desired_set", T0, "api", false, null),
                new TtotalArtifact.TimelineEntry(
                    "in_service", T0.plusMillis(ms * 6 / 10), "router", false, null),
                new TtotalArtifact.TimelineEntry(
                    "traffic_recovered", T0.plusMillis(ms), "probe", false, null))
            : List.of(
                new TtotalArtifact.TimelineEntry("desired_set", T0, "api", false, null),
                new TtotalArtifact.TimelineEntry(
                    "in_service", T0.plusMillis(ms), "router", true, null));
    return new TtotalArtifact(
        new Header(1, "ttotal", "test", T0, null),
        "m",
        "speech-m",
        "force-desired",
        new DeployedConfig("local.500mcpu", "abc", Map.of()),
        0,
        30,
        null,
        null,
        timeline,
        null,
        null,
        List.of(),
        Map.of("concurrency", 4),
        null,
        null);
  }

  @Test
  void combine_oneRun_isThatRunInTheOldShape() {
    TtotalArtifact t = TtotalArtifact.combine(List.of(oneRun(8.5, true)));
    assertThat(t.runs()).isNull();
    assertThat(t.runCount()).isEqualTo(1);
    assertThat(t.tTotalS()).isEqualTo(8.5);
    assertThat(ArtifactCodec.toJson(t)).doesNotContain("\"runs\"");
  }

  @Test
  void combine_threeRuns_topLevelIsTheSlowestAndTheSpreadIsDerived() {
    TtotalArtifact t =
        TtotalArtifact.combine(List.of(oneRun(8.5, true), oneRun(25.9, true), oneRun(10.0, true)));
    assertThat(t.tTotalS()).isEqualTo(25.9);
    assertThat(t.durations().stream().mapToDouble(TtotalArtifact.StageDuration::seconds).sum())
        .isCloseTo(25.9, org.assertj.core.data.Offset.offset(1e-9));
    TtotalRuns r = t.runs();
    assertThat(r.count()).isEqualTo(3);
    assertThat(r.topLevelRun()).isEqualTo(1);
    assertThat(r.tTotalMinS()).isEqualTo(8.5);
    assertThat(r.tTotalMedianS()).isEqualTo(10.0);
    assertThat(r.tTotalP90S()).isEqualTo(25.9);
    assertThat(r.tTotalMaxS()).isEqualTo(25.9);
    assertThat(r.runs()).extracting(TtotalRuns.Run::tTotalS).containsExactly(8.5, 25.9, 10.0);
    assertThat(t.notes()).anyMatch(n -> n.startsWith("3 scale-outs timed"));
  }

  @Test
  void scaleOutTime_statistic_picksTheRunByNearestRank() {
    TtotalArtifact t =
        TtotalArtifact.combine(
            List.of(oneRun(8.5, true), oneRun(25.9, true), oneRun(10.0, true), oneRun(9.0, true)));
    assertThat(t.scaleOutTime(TtotalRuns.Statistic.MAX).measuredSeconds()).isEqualTo(25.9);
    assertThat(t.scaleOutTime(TtotalRuns.Statistic.P90).measuredSeconds()).isEqualTo(25.9);
    assertThat(t.scaleOutTime(TtotalRuns.Statistic.MEDIAN).measuredSeconds()).isEqualTo(9.0);
    assertThat(t.runs().tTotalMedianS()).isEqualTo(9.5);
  }

  @Test
  void runs_aRunWithoutRecovery_isCountedAsAFloor() {
    TtotalArtifact t = TtotalArtifact.combine(List.of(oneRun(8.5, true), oneRun(12.0, false)));
    assertThat(t.runs().boundedRuns()).isEqualTo(1);
    assertThat(t.runs().runs().get(1).tTotalBounded()).isTrue();
    assertThat(t.runs().runs().get(0).tTotalBounded()).isFalse();
  }

  @Test
  void read_editedRunTimeline_recomputesTheRunAndTheSpread(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("ttotal.json");
    ArtifactCodec.write(
        file, TtotalArtifact.combine(List.of(oneRun(8.5, true), oneRun(10.0, true))));
    String json = Files.readString(file);
    Files.writeString(file, json.replace("\"t_total_max_s\" : 10.0", "\"t_total_max_s\" : 99.0"));
    TtotalArtifact read = ArtifactCodec.readTtotal(file);
    assertThat(read.runs().tTotalMaxS()).isEqualTo(10.0);
    assertThat(read.runs().runs()).hasSize(2);
  }
}
