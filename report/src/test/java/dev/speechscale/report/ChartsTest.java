package dev.speechscale.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.artifacts.ValidateTimeline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's per-rung CDFs, surge panel and validate timeline, checked for structure (what is
 * drawn, labelled and said when a view is missing), not for pixels.
 */
class ChartsTest {
  static final RecordedRun RUN = RecordedRun.quickstart();

  @TempDir Path dir;

  static int count(String html, String regex) {
    Matcher m = Pattern.compile(regex).matcher(html);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  static String cdf(QmaxArtifact q) {
    StringBuilder h = new StringBuilder();
    CdfChart.html(h, q);
    return h.toString();
  }

  // ---- per-rung CDFs ----

  @Test
  void cdf_recordedLadder_oneLinePerRungWithAHistogramInTheLegendSortedByN() {
    String html = cdf(RUN.qmax());

    assertThat(count(html, "<path d=\"M")).isEqualTo(RUN.qmax().steps().size());
    assertThat(Pattern.compile(">N=(\\d+)<").matcher(html).results().map(r -> r.group(1)))
        .containsExactly("1", "2", "4", "8", "10", "11", "12", "16", "32");
  }

  @Test
  void cdf_recordedLadder_marksTheSloAnd95PercentOnALogTimeAxis() {
    String html = cdf(RUN.qmax());

    assertThat(html)
        .contains(">SLO 1 s</text>")
        .contains(">95 %</text>")
        .contains(">100 ms</text>")
        .contains("(log scale)");
  }

  @Test
  void cdf_ladderWithoutHistograms_saysNotRecordedAndDrawsNothing() {
    QmaxArtifact twoRuns = ArtifactCodec.readQmax(RecordedRun.TWO_RUNS);

    String html = cdf(twoRuns);

    assertThat(html).contains("not recorded").doesNotContain("<svg");
  }

  @Test
  void color_rampFromFirstToLast_isLightGreenToDeepPurple() {
    assertThat(CdfChart.color(0, 5)).isEqualTo("#7ad151");
    assertThat(CdfChart.color(4, 5)).isEqualTo("#440154");
    assertThat(CdfChart.color(0, 1)).isEqualTo("#7ad151");
  }

  // ---- surge panel ----

  /** The 2026-12-01 quickstart's plan (recommended 1.0, planned 15.75) with {@code curve} added. */
  PlanArtifact planWithCurve(String curve) throws IOException {
    Path original = Path.of("..", "testdata", "quickstart-2026-12-01-2232", "plan-quickstart.json");
    String json = Files.readString(original, StandardCharsets.UTF_8).strip();
    Path file = dir.resolve("plan-quickstart.json");
    Files.writeString(
        file,
        json.substring(0, json.length() - 1) + ",\"surge_curve\":" + curve + "}",
        StandardCharsets.UTF_8);
    return ArtifactCodec.readPlan(file);
  }

  static String surge(PlanArtifact p) {
    StringBuilder h = new StringBuilder();
    SurgeChart.html(h, p);
    return h.toString();
  }

  static final String CURVE =
      "[{\"c_scale_max\":1,\"shed_probability\":0},{\"c_scale_max\":2,\"shed_probability\":0.808},"
          + "{\"c_scale_max\":3,\"shed_probability\":0.999},"
          + "{\"c_scale_max\":15.75,\"shed_probability\":1}]";

  @Test
  void surge_planWithACurve_drawsEveryPointAndMarksPlannedRecommendedTargetAndQmax()
      throws IOException {
    String html = surge(planWithCurve(CURVE));

    assertThat(count(html, "<circle ")).isEqualTo(4);
    assertThat(html)
        .contains(">planned 15.75: shed 100 %</text>")
        .contains(">recommended 1.00: shed 0 %</text>")
        .contains(">target 10 %</text>")
        .contains(">Q_max 21</text>")
        .contains("of 1000 simulated 1.25x surges");
  }

  @Test
  void surge_noThresholdMeetsTheTarget_saysSoAndMarksNoRecommendation() throws IOException {
    String curve = "[{\"c_scale_max\":7.5,\"shed_probability\":1}]";
    String json = Files.readString(RecordedRun.PLAN, StandardCharsets.UTF_8).strip();
    Path file = dir.resolve("plan-none.json");
    Files.writeString(
        file,
        json.substring(0, json.length() - 1) + ",\"surge_curve\":" + curve + "}",
        StandardCharsets.UTF_8);

    String html = surge(ArtifactCodec.readPlan(file));

    assertThat(html).contains("(none is)");
    assertThat(count(html, "<text[^>]*>recommended")).isZero();
  }

  @Test
  void surge_planWrittenBeforeTheCurve_saysNotRecordedAndHowToGetIt() {
    assertThat(surge(RUN.plan()))
        .contains("not recorded")
        .contains("tts-bench plan")
        .doesNotContain("<svg");
  }

  @Test
  void pct_smallProbabilities_keepOneDecimal() {
    assertThat(SurgeChart.pct(0.004)).isEqualTo("0.4 %");
    assertThat(SurgeChart.pct(0.808)).isEqualTo("81 %");
    assertThat(SurgeChart.pct(0)).isEqualTo("0 %");
  }

  // ---- validate timeline ----

  static ValidateArtifact validate(boolean live, ValidateTimeline t) {
    ValidateArtifact v = RUN.validate();
    return new ValidateArtifact(
        v.header(),
        v.model(),
        v.endpoint(),
        v.platform(),
        v.plan(),
        live,
        v.verdict(),
        v.checks(),
        t,
        v.refusalCost());
  }

  static ValidateTimeline timeline() {
    return new ValidateTimeline(
        Instant.parse("2026-12-02T01:00:00Z"),
        5,
        "ConcurrentRequestsPerModel, Maximum per 1 s period, largest in the interval",
        List.of(
            new ValidateTimeline.Phase("live_rejections", 0.5),
            new ValidateTimeline.Phase("live_surge", 12)),
        List.of(
            new ValidateTimeline.Sample(0, 1, 9.0, 40, 450.0, 0),
            new ValidateTimeline.Sample(5, 1, 21.0, 30, 1400.0, 6),
            new ValidateTimeline.Sample(10, 2, null, 0, null, 0),
            new ValidateTimeline.Sample(15, 2, 12.0, 55, 600.0, 0)));
  }

  static String timelineHtml(ValidateArtifact v) {
    StringBuilder h = new StringBuilder();
    TimelineChart.html(h, v, RUN.plan());
    return h.toString();
  }

  @Test
  void timeline_recorded_fourPanelsOnOneTimeAxisWithThePhasesNamedOnce() {
    String html = timelineHtml(validate(true, timeline()));

    assertThat(count(html, "<svg ")).isEqualTo(4);
    assertThat(html)
        .contains(">instances in service</text>")
        .contains(">p95 TTFAB per interval</text>")
        .contains(">requests refused (shed) per interval</text>")
        .contains(">rejections above Q_max</text>")
        .contains(">open-loop surge</text>")
        .contains(">0:15</text>")
        .contains("from 2026-12-02 01:00:00 UTC");
    assertThat(count(html, ">open-loop surge<")).isEqualTo(1);
    assertThat(count(html, "stroke-dasharray=\"2 3\"")).isEqualTo(8);
  }

  @Test
  void timeline_recorded_marksTheSloAndTheScalingTargetAndBreaksLinesAtGaps() {
    String html = timelineHtml(validate(true, timeline()));

    assertThat(html)
        .contains(">SLO 1 s</text>")
        .contains(
            String.format(
                java.util.Locale.ROOT,
                ">scaling target %.2f</text>",
                RUN.plan().scalingTargetValue()));
    // the concurrency and p95 lines each break at the interval with no datapoint
    assertThat(count(html, "<path d=\"M[^\"]* M")).isEqualTo(2);
    // one refusal bar: only the interval with refusals
    assertThat(count(html, "refused of")).isEqualTo(1);
  }

  @Test
  void timeline_liveArtifactWrittenBeforeTimelines_saysNotRecorded() {
    assertThat(timelineHtml(validate(true, null))).contains("not recorded").doesNotContain("<svg");
  }

  @Test
  void timeline_staticValidation_saysNoLoadWasDriven() {
    assertThat(timelineHtml(validate(false, null)))
        .contains("no load was driven")
        .doesNotContain("<svg");
  }

  // ---- axes and times ----

  @Test
  void logTicks_fiveMillisecondsToTwoSeconds_areOneTwoFiveSteps() {
    assertThat(Plot.logTicks(5, 2000))
        .containsExactly(5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0);
  }

  @Test
  void niceBounds_roundOutwardsToOneTwoFive() {
    assertThat(Plot.niceBelow(7.4)).isEqualTo(5.0);
    assertThat(Plot.niceBelow(20)).isEqualTo(20.0);
    assertThat(Plot.niceAbove(1482)).isEqualTo(2000.0);
    assertThat(Plot.niceAbove(600)).isEqualTo(1000.0);
  }

  @Test
  void logAxis_decadeBoundaries_fallAtEqualSpacing() {
    Plot.Axis log = new Plot.Axis.Log(10, 1000);

    assertThat(log.fraction(10)).isZero();
    assertThat(log.fraction(100)).isEqualTo(0.5, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(log.fraction(1000)).isEqualTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
  }

  @Test
  void millisAndClock_readAsPeopleWriteThem() {
    assertThat(Html.millis(20)).isEqualTo("20 ms");
    assertThat(Html.millis(76.43)).isEqualTo("76.4 ms");
    assertThat(Html.millis(1000)).isEqualTo("1 s");
    assertThat(Html.millis(1475.5)).isEqualTo("1.48 s");
    assertThat(Html.millis(0.5)).isEqualTo("0.5 ms");
    assertThat(Html.clock(95)).isEqualTo("1:35");
    assertThat(Html.clock(4.6)).isEqualTo("0:05");
  }
}
