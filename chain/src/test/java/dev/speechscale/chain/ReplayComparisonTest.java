package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.FleetFigures;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.report.QuickstartReport;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.simulator.ColdStart;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Traffic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class ReplayComparisonTest {

  /** Three minutes, a scale-out decided at 90 s and in service at 100 s, no scale-in. */
  static PolicyResult predicted() {
    return new PolicyResult(
        "plan",
        "test",
        1000,
        900,
        100,
        0,
        0,
        880,
        100,
        80,
        300,
        400,
        2,
        1.5,
        0.1,
        1,
        0,
        80,
        List.of(
            new PolicyResult.Minute(0, 120, 120, 0, 0, 100, 1, 1),
            new PolicyResult.Minute(1, 600, 500, 100, 20, 900, 1.33, 2),
            new PolicyResult.Minute(2, 280, 280, 0, 0, 240, 2, 2)),
        List.of(new PolicyResult.ScalingEvent(90, 1, 2, "target tracking", OptionalLong.of(100))));
  }

  /** The live run: 110 requests in minute 0 and a second instance in service at 104 s. */
  static LiveReplay live() {
    List<LiveReplay.Request> requests = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      requests.add(new LiveReplay.Request(i * 0.5, 100.0, LiveReplay.Status.OK));
    }
    for (int i = 0; i < 8; i++) {
      requests.add(new LiveReplay.Request(61 + i, null, LiveReplay.Status.SHED));
    }
    requests.add(new LiveReplay.Request(130, 200.0, LiveReplay.Status.OK));
    requests.add(new LiveReplay.Request(131, 200.0, LiveReplay.Status.OK));
    return new LiveReplay(
        new LiveReplay.Origin(
            "speech-x", "local", Instant.parse("2026-12-01T15:00:00Z"), Duration.ofSeconds(60)),
        new LiveReplay.Schedule("test trace", 180, 60.0, 1, Duration.ofMillis(200)),
        requests,
        List.of(
            new LiveReplay.CapacitySample(0, 1, 1),
            new LiveReplay.CapacitySample(91.2, 2, 1),
            new LiveReplay.CapacitySample(104.0, 2, 2)),
        0,
        null);
  }

  @Test
  void predictedFigures_events_rebuildInstancesPerSecondAndTheSurgeTime() {
    FleetFigures f = ReplayComparison.predictedFigures(predicted(), 1, live());

    assertThat(f.inServicePerSecond()).hasSize(180);
    assertThat(f.inServicePerSecond().get(99)).isEqualTo(1);
    assertThat(f.inServicePerSecond().get(100)).isEqualTo(2);
    assertThat(f.desiredPerSecond().get(89)).isEqualTo(1);
    assertThat(f.desiredPerSecond().get(90)).isEqualTo(2);
    assertThat(f.surgeToInServiceS()).isEqualTo(40.0);
    assertThat(f.shedFraction()).isEqualTo(0.1);
    assertThat(f.minutes().get(1).p95TtfabMs()).isEqualTo(900.0);
  }

  @Test
  void rows_judgeEachFigureAgainstItsTolerance_notTheSurgeMinute() {
    FleetFigures p = ReplayComparison.predictedFigures(predicted(), 1, live());
    FleetFigures m = live().figures();

    List<ReplayArtifact.Row> rows = ReplayComparison.rows(p, m, 60.0);

    ReplayArtifact.Row shed = rows.getFirst();
    assertThat(shed.figure()).isEqualTo("shed_fraction");
    // predicted 10 %, measured 8 of 110 = 7.27 %: +2.73 pp, a miss at ±2 pp
    assertThat(shed.error()).isCloseTo(10 - 800.0 / 110, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(shed.result()).isEqualTo(ReplayArtifact.Result.MISS);
    ReplayArtifact.Row surge = rows.get(1);
    // predicted 40 s, measured 44 s: -9.1 %, within ±15 %
    assertThat(surge.error()).isCloseTo(-100 * 4 / 44.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(surge.result()).isEqualTo(ReplayArtifact.Result.WITHIN);
    assertThat(rows)
        .filteredOn(r -> r.figure().equals("p95_ttfab_ms"))
        .extracting(ReplayArtifact.Row::minute, ReplayArtifact.Row::result)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, ReplayArtifact.Result.WITHIN),
            org.assertj.core.groups.Tuple.tuple(1, ReplayArtifact.Result.NOT_JUDGED),
            // +20 % on two requests: no interval of the p95 exists, so no miss can be told
            org.assertj.core.groups.Tuple.tuple(2, ReplayArtifact.Result.UNRESOLVED));
  }

  @Test
  void p95Interval_150Samples_spansTheOrderStatisticsAroundThe95th() {
    double[] ttfab = new double[150];
    for (int i = 0; i < ttfab.length; i++) {
      ttfab[ttfab.length - 1 - i] = i + 1; // unsorted on purpose
    }

    // n q = 142.5, 1.96 sd = 5.23: ranks 137 and 148
    assertThat(LiveReplay.p95Interval(ttfab)).isEqualTo(new FleetFigures.Interval(137, 148));
    assertThat(LiveReplay.p95Interval(new double[40])).isNull(); // rank 41 of 40
  }

  /** A quiet minute whose 150 requests measured a p95 of 50 ms, somewhere in 40–100 ms. */
  static FleetFigures.Minute quietMinute(FleetFigures.@Nullable Interval interval) {
    return new FleetFigures.Minute(1, 150, 150, 0, 50.0, 2, interval);
  }

  @Test
  void p95_beyondToleranceInsideTheInterval_isUnresolvedAndSaysWhy() {
    ReplayArtifact.Row row =
        ComparisonRows.p95(1, 80.0, quietMinute(new FleetFigures.Interval(40, 100)));

    assertThat(row.error()).isEqualTo(60.0);
    assertThat(row.result()).isEqualTo(ReplayArtifact.Result.UNRESOLVED);
    assertThat(row.note())
        .isEqualTo(
            "inside the measured p95's 95 % interval 40.0–100.0 ms (150 requests):"
                + " too few to tell a ±15 % miss");
  }

  @Test
  void p95_beyondToleranceOutsideTheInterval_isAMiss() {
    FleetFigures.Minute m = quietMinute(new FleetFigures.Interval(40, 100));

    assertThat(ComparisonRows.p95(1, 120.0, m).result()).isEqualTo(ReplayArtifact.Result.MISS);
    assertThat(ComparisonRows.p95(1, 30.0, m).result()).isEqualTo(ReplayArtifact.Result.MISS);
  }

  @Test
  void p95_withinTolerance_isWithinWhateverTheInterval() {
    assertThat(ComparisonRows.p95(1, 57.0, quietMinute(new FleetFigures.Interval(49, 51))))
        .extracting(ReplayArtifact.Row::result)
        .isEqualTo(ReplayArtifact.Result.WITHIN);
    assertThat(ComparisonRows.p95(1, 43.0, quietMinute(null)).result())
        .isEqualTo(ReplayArtifact.Result.WITHIN);
  }

  @Test
  void p95_tooFewSamplesForAnInterval_isUnresolvedNotAMiss() {
    ReplayArtifact.Row row = ComparisonRows.p95(1, 80.0, quietMinute(null));

    assertThat(row.result()).isEqualTo(ReplayArtifact.Result.UNRESOLVED);
    assertThat(row.note()).isEqualTo("150 requests: too few for an interval of the p95");
  }

  @Test
  void of_replay_isAValidReplayArtifact() {
    ReplayPrediction.Setup setup = setup("test");

    ReplayArtifact a =
        ReplayComparison.of(
            ABOUT,
            setup,
            predicted(),
            live(),
            new ReplayArtifact.Warmup(
                4, 140, 10.0, 14.0, 12.5, 1.12, true, "X_sat scaled by the warm-up's speed", 290L),
            ReplayComparison.HostSpeedFigure.NONE,
            Instant.parse("2026-12-01T15:10:00Z"));

    assertThat(ArtifactCodec.validate(ArtifactKind.REPLAY, ArtifactCodec.toJson(a))).isEmpty();
    assertThat(a.verdict().label()).isEqualTo("miss (1)"); // shed; minute 2 is unresolved
    assertThat(ArtifactCodec.toJson(a))
        .contains(
            "\"warmup\" : {",
            "\"served_rps\" : 14.0",
            "\"applied\" : true",
            "\"initial_served\" : 290");
    assertThat(a.measuredEvents())
        .extracting(ReplayArtifact.Event::what, ReplayArtifact.Event::atS)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("desired", 91.2),
            org.assertj.core.groups.Tuple.tuple("in_service", 104.0));
  }

  @Test
  void predictedFigures_scaleInOfAStartingInstance_leavesTheOneInServiceCounted() {
    // run 4's timeline: out at 90 (starting), in at 91 (cancels the starting one), out at 120,
    // in service at 128; the instance in service never left
    PolicyResult r =
        new PolicyResult(
            "plan",
            "test",
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            Double.NaN,
            0,
            0,
            2,
            1.5,
            0.1,
            2,
            1,
            0,
            List.of(),
            List.of(
                new PolicyResult.ScalingEvent(90, 1, 2, "target tracking", OptionalLong.empty()),
                new PolicyResult.ScalingEvent(91, 2, 1, "step scale-in", OptionalLong.empty()),
                new PolicyResult.ScalingEvent(120, 1, 2, "target tracking", OptionalLong.of(128))));

    FleetFigures f = ReplayComparison.predictedFigures(r, 1, live());

    assertThat(f.inServicePerSecond().subList(85, 135)).allMatch(n -> n >= 1);
    assertThat(f.inServicePerSecond().get(127)).isEqualTo(1);
    assertThat(f.inServicePerSecond().get(128)).isEqualTo(2);
    assertThat(f.desiredPerSecond().get(90)).isEqualTo(2);
    assertThat(f.desiredPerSecond().get(91)).isEqualTo(1);
  }

  @Test
  void report_withReplay_showsPredictedBesideMeasuredAndBothCharts() {
    ReplayArtifact a =
        ReplayComparison.of(
            ABOUT,
            setup("the <model>"),
            predicted(),
            live(),
            null,
            ReplayComparison.HostSpeedFigure.NONE,
            Instant.parse("2026-12-01T15:10:00Z"));

    String page =
        QuickstartReport.html(
            new QuickstartReport.Inputs(
                "t", null, null, null, null, null, null, null, a, null, null));

    assertThat(page)
        .contains("Simulator against the live fleet (replay)")
        .contains(
            "replay vs simulator</div><div class=\"big\"><span class=\"warn\">miss (1)</span>")
        .contains("<td>shed fraction</td><td class=\"n\">10.00 %</td><td class=\"n\">7.27 %</td>")
        .contains(
            "<td>surge to the next instance in service</td><td class=\"n\">40.0 s</td>"
                + "<td class=\"n\">44.0 s</td>")
        .contains("aria-label=\"instances in service per second, predicted and measured\"")
        .contains("aria-label=\"p95 TTFAB per minute, predicted and measured\"")
        .contains("the &lt;model&gt;")
        .doesNotContain("the <model>");
  }

  /** What the replay artifacts of these tests say about their inputs. */
  private static final ReplayComparison.About ABOUT =
      new ReplayComparison.About(
          "x",
          "trace.csv",
          new ReplayArtifact.Inputs("q.json", "t.json", "p.json"),
          "tts-bench replay",
          Map.of());

  @Test
  void withInitialServed_theReplaysInstanceGoesOnAlongTheColdStart_andThePhysicsSaysSo() {
    ReplayPrediction.Setup plain = setup("model");
    ReplayPrediction.Setup cold =
        new ReplayPrediction.Setup(
            plain
                .model()
                .withColdStart(
                    new ColdStart(
                        List.of(new ColdStart.Step(200, 1.5), new ColdStart.Step(400, 1.2)),
                        "ttotal")),
            plain.policy(),
            plain.options(),
            plain.physics());

    ReplayPrediction.Setup s = ReplayPrediction.withInitialServed(cold, 290);

    assertThat(s.options().initialServed()).isEqualTo(290);
    assertThat(
            ReplayPrediction.withPreRoll(s, new FleetSimulator.PreRoll.None())
                .options()
                .initialServed())
        .isEqualTo(290); // another pre-roll keeps it
    assertThat(plain.options().initialServed()).isEqualTo(FleetSimulator.Options.INITIAL_WARM);
    assertThat(s.physics().instanceModel())
        .isEqualTo(
            "model; the initial instance, deployed for the replay, served 290 requests in its"
                + " warm-up and goes on along that cold start from there (x1.20 at its request"
                + " 290)");
  }

  @Test
  void initialInstances_freshWithoutAWarmUpStartsTheColdStart_warmServesAsTheLadder() {
    ReplayPrediction.Setup plain = setup("model");
    ReplayPrediction.Setup cold =
        new ReplayPrediction.Setup(
            plain.model().withColdStart(new ColdStart(List.of(new ColdStart.Step(400, 1.5)), "t")),
            plain.policy(),
            plain.options(),
            plain.physics());

    ReplayPrediction.Setup fresh = ReplayPrediction.withInitialServed(cold, 0);
    ReplayPrediction.Setup warm = ReplayPrediction.asWarm(cold);

    assertThat(fresh.options().initialServed()).isZero();
    assertThat(fresh.physics().instanceModel())
        .isEqualTo(
            "model; the initial instance, deployed for the replay and not warmed by it, starts"
                + " that cold start from its first request (x1.50)");
    assertThat(warm.options().initialServed()).isEqualTo(FleetSimulator.Options.INITIAL_WARM);
    assertThat(warm.physics().instanceModel())
        .isEqualTo(
            "model; the initial instance, in service before the replay (--initial-instances"
                + " warm), serves as warm as qmax's ladder instance");
    // 400 requests at x1.5 on the one instance (5 req/s, 0.35 busy when warm): slower when fresh
    Traffic t =
        Traffic.csv("t.csv", () -> java.util.stream.Stream.of("time_s,rps", "0,5", "120,0"));
    double freshMean = ReplayPrediction.predict(fresh, t).ttfabMeanMs();
    double warmMean = ReplayPrediction.predict(warm, t).ttfabMeanMs();
    assertThat(freshMean).isGreaterThan(1.2 * warmMean);
  }

  /**
   * A replay set-up: one serial instance (lognormal service time), the plan's policy (1..2, target
   * 7.5, scale-in 5, cooldowns 30 s / 300 s) and the same numbers as the artifact's physics, both
   * labelled {@code label}.
   */
  private static ReplayPrediction.Setup setup(String label) {
    return new ReplayPrediction.Setup(
        new InstanceModel(
            1,
            ServiceTimeDistribution.lognormal(0.07, 0.09),
            1,
            0.5,
            10,
            Duration.ofSeconds(56),
            Duration.ofSeconds(8),
            label),
        new Policy.Planned(
            "plan",
            1,
            2,
            7.5,
            5,
            Duration.ofSeconds(30),
            Duration.ofSeconds(300),
            ScaleInAlarm.AVERAGE_60S),
        new FleetSimulator.Options(1000, Duration.ZERO, 1),
        new ReplayArtifact.Physics(0, 1, 2, 7.5, 5, 30, 300, 1, 8, label, 0.0));
  }
}
