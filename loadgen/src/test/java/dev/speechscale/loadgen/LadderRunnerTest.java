package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.capacity.Ladder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LadderRunnerTest {
  private static final double SLO = 125; // a serial server at 10 ms per request: Q_max = 12

  /** A ladder without drift re-checks: these tests are about the walk (LadderDriftTest: those). */
  private static LadderSpec spec(List<Integer> rungs, int runs) {
    return LadderSpec.of(rungs, Duration.ofSeconds(4), Duration.ofSeconds(2), runs, SLO)
        .withDrift(DriftRecheck.OFF);
  }

  private static LadderResult run(SimulatedMeasurer m, LadderSpec spec) {
    return new LadderRunner(m, LadderHooks.defaults()).run(spec);
  }

  @Test
  void run_bisection_closesQmaxToPlusMinusOne() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    LadderResult result = run(m, spec(List.of(1, 5, 10, 20), 1));
    Ladder ladder = result.ladder();

    assertThat(m.asked).containsExactly("0:1", "0:5", "0:10", "0:20", "0:15", "0:12", "0:13");
    assertThat(ladder.qMax()).isEqualTo(12);
    assertThat(ladder.bracketed()).isTrue();
    assertThat(ladder.refined()).isTrue();
    assertThat(result.reports())
        .extracting(RungReport::phase)
        .containsExactly(
            RungReport.Phase.COARSE,
            RungReport.Phase.COARSE,
            RungReport.Phase.COARSE,
            RungReport.Phase.COARSE,
            RungReport.Phase.BISECT,
            RungReport.Phase.BISECT,
            RungReport.Phase.BISECT);
    assertThat(result.notes()).anyMatch(n -> n.contains("closed Q_max at 12"));
  }

  @Test
  void run_noRefine_qmaxIsTheRungSpacing() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    Ladder ladder = run(m, spec(List.of(1, 5, 10, 20), 1).withRefine(false)).ladder();

    assertThat(m.asked).containsExactly("0:1", "0:5", "0:10", "0:20");
    assertThat(ladder.qMax()).isEqualTo(10);
    assertThat(ladder.refined()).isFalse();
  }

  @Test
  void run_stepIndexesContinueThroughBisection() {
    LadderResult result = run(SimulatedMeasurer.serial(10), spec(List.of(10, 20), 1));

    assertThat(result.steps()).extracting(s -> s.stepIndex()).containsExactly(0, 1, 2, 3, 4);
    assertThat(result.steps()).extracting(s -> s.concurrency()).containsExactly(10, 20, 15, 12, 13);
  }

  @Test
  void run_twoConsecutiveSaturatedRungs_stopTheRunAndSkipBisection() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).saturatedWhen(n -> n >= 20);

    LadderResult result = run(m, spec(List.of(5, 10, 20, 30, 40), 1));

    assertThat(m.asked).containsExactly("0:5", "0:10", "0:20", "0:30");
    assertThat(result.notes()).anyMatch(n -> n.contains("2 consecutive saturated rungs"));
  }

  @Test
  void run_oneSaturatedRungBetweenUsableOnes_doesNotStop() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).saturatedWhen(n -> n == 20);

    run(m, spec(List.of(10, 20, 30), 1).withRefine(false));

    assertThat(m.asked).containsExactly("0:10", "0:20", "0:30");
  }

  @Test
  void run_unusableBisectionRung_stopsBisectionWithANote() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).unsettledWhen(n -> n == 15);

    LadderResult result = run(m, spec(List.of(10, 20), 1));

    assertThat(m.asked).containsExactly("0:10", "0:20", "0:15");
    assertThat(result.ladder().qMax()).isEqualTo(10);
    assertThat(result.ladder().refined()).isFalse();
    assertThat(result.notes()).anyMatch(n -> n.contains("bisection stopped at N=15"));
  }

  @Test
  void run_unstableBisectionRungWhoseWindowsAllMeetTheSlo_bisectsOnAbove() {
    // 8 ms a request, SLO 125 ms: Q_max 15. N=11 does not settle, its windows at 79, 88 and 97 ms
    // all inside the SLO: before, the bisection stopped there and left Q_max at 4
    SimulatedMeasurer m =
        new SimulatedMeasurer((run, n) -> 8.0 * n).unstableWhen(n -> n == 11, 0.10);

    LadderResult result = run(m, spec(List.of(4, 32), 1));

    assertThat(m.asked).containsExactly("0:4", "0:32", "0:18", "0:11", "0:14", "0:16", "0:15");
    assertThat(result.ladder().qMax()).isEqualTo(15);
    assertThat(result.notes())
        .anyMatch(n -> n.contains("N=11 did not settle, but every one of its windows met the SLO"))
        .anyMatch(n -> n.contains("bisection closed Q_max at 15"));
  }

  @Test
  void run_unstableCoarseRungWhoseWindowsAllMeetTheSlo_raisesTheBisectionsLowerEnd() {
    // N=8 (windows 72, 80, 88 ms) does not settle below the first breach (16): the bisection
    // begins at [8, 16), not [4, 16)
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).unstableWhen(n -> n == 8, 0.10);

    LadderResult result = run(m, spec(List.of(4, 8, 16, 32), 1));

    assertThat(m.asked).containsExactly("0:4", "0:8", "0:16", "0:32", "0:12", "0:14", "0:13");
    assertThat(result.ladder().qMax()).isEqualTo(12);
  }

  @Test
  void run_lastMeetingRungUnsettled_bracketsItButQmaxCountsUsableRungs() {
    // N=12 (windows 116, 120, 124 ms) is the last rung inside the SLO and does not settle
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).unstableWhen(n -> n == 12, 0.03);

    LadderResult result = run(m, spec(List.of(10, 20), 1));

    assertThat(m.asked).containsExactly("0:10", "0:20", "0:15", "0:12", "0:13");
    assertThat(result.ladder().qMax()).isEqualTo(10);
    assertThat(result.notes())
        .anyMatch(n ->
            n.contains(
                "bisection closed the bracket at [12, 13) but N=12 did not settle, so Q_max"
                    + " counts the usable rungs below it"));
  }

  @Test
  void run_unstableBisectionRungStraddlingTheSlo_stillStopsTheBisection() {
    // N=12: windows 108, 120 and 132 ms around the 125 ms SLO
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).unstableWhen(n -> n == 12, 0.10);

    LadderResult result = run(m, spec(List.of(10, 20), 1));

    assertThat(m.asked).containsExactly("0:10", "0:20", "0:15", "0:12");
    assertThat(result.ladder().qMax()).isEqualTo(10);
    assertThat(result.notes()).anyMatch(n -> n.contains("bisection stopped at N=12"));
  }

  @Test
  void run_notBracketed_noBisectionAndSaysHowToFix() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(1);

    LadderResult result = run(m, spec(List.of(1, 5, 10), 1));

    assertThat(m.asked).containsExactly("0:1", "0:5", "0:10");
    assertThat(result.ladder().bracketed()).isFalse();
    assertThat(result.notes()).anyMatch(n -> n.contains("add a higher rung"));
  }

  @Test
  void run_noRungMeetsTheSlo_noBisection() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(200);

    LadderResult result = run(m, spec(List.of(1, 5), 1));

    assertThat(m.asked).containsExactly("0:1", "0:5");
    assertThat(result.ladder().qMax()).isZero();
  }

  @Test
  void run_unusableBreachAbove_doesNotBracket() {
    // N=20 breaches but is unsettled, so it cannot bracket: bisection starts from 30 (and
    // stops when 20, its midpoint, is unsettled again)
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).unsettledWhen(n -> n == 20);

    LadderResult result = run(m, spec(List.of(10, 20, 30), 1));

    assertThat(m.asked).containsExactly("0:10", "0:20", "0:30", "0:20");
    assertThat(result.ladder().qMax()).isEqualTo(10);
    assertThat(result.ladder().bracketed()).isTrue();
    assertThat(result.ladder().refined()).isFalse();
  }

  @Test
  void run_multipleRuns_eachBisectsAndQmaxIsTheMinimum() {
    SimulatedMeasurer m = new SimulatedMeasurer((run, n) -> (run == 0 ? 10.0 : 12.0) * n);

    LadderResult result = run(m, spec(List.of(10, 20), 2));

    assertThat(result.ladder().qMaxPerRun()).containsExactly(12, 10);
    assertThat(result.ladder().qMax()).isEqualTo(10);
    assertThat(m.asked).startsWith("0:10", "0:20").contains("1:11");
  }

  @Test
  void run_stopAfterBreach_endsTheCoarsePassAtTheFirstBreach() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    run(m, spec(List.of(10, 20, 30, 40), 1).withStopAfterBreach(true));

    assertThat(m.asked).containsExactly("0:10", "0:20", "0:15", "0:12", "0:13");
  }

  @Test
  void run_progress_reportsEveryRungWithAnEta() {
    List<LadderListener.Progress> started = new ArrayList<>();
    List<LadderListener.Progress> finished = new ArrayList<>();
    LadderListener listener =
        new LadderListener() {
          @Override
          public void rungStarted(Progress p) {
            started.add(p);
          }

          @Override
          public void rungFinished(Progress p, RungReport r) {
            finished.add(p);
          }
        };

    new LadderRunner(SimulatedMeasurer.serial(10), LadderHooks.defaults().withListener(listener))
        .run(spec(List.of(10, 20), 1));

    assertThat(started).hasSize(5);
    assertThat(finished).hasSize(5);
    assertThat(started.get(0).eta()).isEqualTo(Duration.ofSeconds(4).multipliedBy(2 + 4));
    assertThat(started.get(0).rungsPlanned()).isEqualTo(6);
    assertThat(started.get(4).phase()).isEqualTo(RungReport.Phase.BISECT);
    assertThat(finished.get(4).rungsDone()).isEqualTo(5);
  }

  @Test
  void stop_midLadder_returnsWhatWasMeasured() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);
    LadderRunner runner = new LadderRunner(m, LadderHooks.defaults());
    int[] calls = {0};
    m.onMeasure(() -> {
      if (++calls[0] == 3) {
        runner.stop();
      }
    });

    LadderResult result = runner.run(spec(List.of(1, 5, 10, 20), 2));

    assertThat(result.stopped()).isTrue();
    assertThat(result.reports()).extracting(RungReport::concurrency).containsExactly(1, 5);
    assertThat(result.notes()).anyMatch(n -> n.contains("stopped during N=10"));
  }

  @Test
  void run_warmup_runsOnceBeforeTheFirstRungAndIsNotARung() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    LadderResult result = run(m, spec(List.of(1, 5, 10, 20), 2).withWarmup(Duration.ofSeconds(3)));

    assertThat(m.warmups).containsExactly("4 for PT3S");
    assertThat(result.reports()).allMatch(r -> r.stepIndex() >= 0);
    assertThat(result.ladder().qMax()).isEqualTo(12);
    assertThat(result.notes().getFirst()).startsWith("warm-up: N=4 for 3s, not measured");
  }

  @Test
  void run_warmupOnALowLadder_usesItsTopRung() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    run(m, spec(List.of(1, 2), 1).withWarmup(Duration.ofSeconds(1)));

    assertThat(m.warmups).containsExactly("2 for PT1S");
  }

  @Test
  void run_noWarmup_sendsNone() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    run(m, spec(List.of(1, 5), 1));

    assertThat(m.warmups).isEmpty();
  }

  @Test
  void stop_duringWarmup_measuresNothing() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);
    LadderRunner runner = new LadderRunner(m, LadderHooks.defaults());
    m.onMeasure(runner::stop);

    LadderResult result = runner.run(spec(List.of(1, 5), 1).withWarmup(Duration.ofSeconds(3)));

    assertThat(result.stopped()).isTrue();
    assertThat(result.reports()).isEmpty();
    assertThat(result.notes()).anyMatch(n -> n.contains("stopped during the warm-up"));
  }

  @Test
  void withServerConcurrency_joinsEachWindowAfterwards() {
    LadderResult result = run(SimulatedMeasurer.serial(10), spec(List.of(1), 1));

    LadderResult joined =
        result.withServerConcurrency(
            (start, end) -> java.util.Optional.of(new LadderHooks.ServerConcurrency(3.0, 1.5)));

    assertThat(joined.steps().get(0).serverConcurrencyPeak()).isEqualTo(3.0);
    assertThat(joined.steps().get(0).serverConcurrencyMean()).isEqualTo(1.5);
    assertThat(result.steps().get(0).serverConcurrencyPeak()).isNull();
  }
}
