package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.QmaxDrift;
import dev.speechscale.artifacts.QmaxRecheck;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ladder's drift check on a simulated server: which rung, when, and what it concludes. */
class LadderDriftTest {
  private static final double SLO = 125; // a serial server at 10 ms per request: Q_max = 12

  private static LadderSpec spec(List<Integer> rungs, int runs, DriftRecheck drift) {
    return LadderSpec.of(rungs, Duration.ofSeconds(4), Duration.ofSeconds(2), runs, SLO)
        .withDrift(drift);
  }

  private static LadderResult run(SimulatedMeasurer m, LadderSpec spec) {
    return new LadderRunner(m, LadderHooks.defaults()).run(spec);
  }

  @Test
  void run_defaultCheck_remeasuresTheHighestPassingCoarseRungAfterTheBisection() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    LadderResult result = run(m, spec(List.of(1, 5, 10, 20), 1, DriftRecheck.DEFAULT));

    assertThat(m.asked)
        .containsExactly("0:1", "0:5", "0:10", "0:20", "0:15", "0:12", "0:13", "0:10r");
    assertThat(result.rechecks())
        .singleElement()
        .satisfies(r -> {
          assertThat(r.first().stepIndex()).isEqualTo(2);
          assertThat(r.first().phase()).isEqualTo(RungReport.Phase.COARSE);
          assertThat(r.again().stepIndex()).isEqualTo(7);
          assertThat(r.when()).isEqualTo("at the end of run 1");
        });
    assertThat(result.steps()).hasSize(7); // the re-check is not a step
    assertThat(result.ladder().qMax()).isEqualTo(12);
    QmaxDrift drift = result.drift();
    assertThat(drift.drifted()).isFalse();
    assertThat(drift.finding()).isNull();
    assertThat(drift.throughputTolerancePct()).isEqualTo(10);
    assertThat(drift.p95TolerancePct()).isEqualTo(15);
    assertThat(result.notes()).anyMatch(n -> n.startsWith("run 1: drift within tolerance: N=10"));
  }

  @Test
  void run_serverSlowerAtTheRecheck_carriesADriftFindingWithTheFigures() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).slowerAtRecheck(1.25);

    LadderResult result = run(m, spec(List.of(1, 5, 10, 20), 1, DriftRecheck.DEFAULT));

    QmaxDrift drift = result.drift();
    assertThat(drift.drifted()).isTrue();
    QmaxRecheck r = drift.rechecks().getFirst();
    assertThat(r.concurrency()).isEqualTo(10);
    assertThat(r.firstRps()).isEqualTo(50.0); // 100 completions in the 2 s window
    assertThat(r.remeasuredRps()).isEqualTo(40.0);
    assertThat(r.firstP95Ms()).isEqualTo(100.0);
    assertThat(r.remeasuredP95Ms()).isEqualTo(125.0);
    assertThat(r.beyondTolerance()).isTrue();
    assertThat(drift.finding())
        .contains("N=10 re-measured at the end of run 1")
        .contains("throughput 50.0 -> 40.0 req/s (-20.0 %, tolerance 10 %)")
        .contains("p95 TTFAB 100 -> 125 ms (+25.0 %, tolerance 15 %)");
    assertThat(result.ladder().qMax()).isEqualTo(12); // drift is reported, never re-judged
    assertThat(result.notes()).anyMatch(n -> n.startsWith("run 1: drift BEYOND tolerance"));
  }

  @Test
  void run_wideTolerance_sameSlowdownStaysClean() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).slowerAtRecheck(1.25);

    LadderResult result =
        run(m, spec(List.of(1, 5, 10, 20), 1, new DriftRecheck(DriftRecheck.Mode.END, 25, 30)));

    assertThat(result.drift().drifted()).isFalse();
  }

  @Test
  void run_bisectionMode_rechecksBetweenStepsAndAtTheEnd() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    LadderResult result =
        run(
            m,
            spec(List.of(1, 5, 10, 20), 1, new DriftRecheck(DriftRecheck.Mode.BISECTION, 10, 15)));

    assertThat(m.asked)
        .containsExactly(
            "0:1", "0:5", "0:10", "0:20", "0:15", "0:10r", "0:12", "0:10r", "0:13", "0:10r");
    assertThat(result.rechecks())
        .extracting(ReferenceRecheck::when)
        .containsExactly(
            "between bisection steps 1 and 2 of run 1",
            "between bisection steps 2 and 3 of run 1",
            "at the end of run 1");
    // a re-check takes a step index (its requests are logged under it); steps skip it
    assertThat(result.steps()).extracting(s -> s.stepIndex()).containsExactly(0, 1, 2, 3, 4, 6, 8);
    assertThat(result.rechecks()).extracting(r -> r.again().stepIndex()).containsExactly(5, 7, 9);
    assertThat(result.ladder().qMax()).isEqualTo(12);
  }

  @Test
  void run_notBracketed_rechecksQmaxItself() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(1);

    LadderResult result = run(m, spec(List.of(1, 5, 10), 1, DriftRecheck.DEFAULT));

    assertThat(m.asked).containsExactly("0:1", "0:5", "0:10", "0:10r");
    assertThat(result.rechecks()).hasSize(1);
  }

  @Test
  void run_truncatedBySaturation_stillRechecksTheReference() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10).saturatedWhen(n -> n >= 20);

    LadderResult result = run(m, spec(List.of(5, 10, 20, 30, 40), 1, DriftRecheck.DEFAULT));

    assertThat(m.asked).containsExactly("0:5", "0:10", "0:20", "0:30", "0:10r");
    assertThat(result.notes()).anyMatch(n -> n.contains("2 consecutive saturated rungs"));
  }

  @Test
  void run_noRungMeetsTheSlo_noRecheckAndANote() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(200);

    LadderResult result = run(m, spec(List.of(1, 5), 1, DriftRecheck.DEFAULT));

    assertThat(m.asked).containsExactly("0:1", "0:5");
    assertThat(result.rechecks()).isEmpty();
    assertThat(result.drift().rechecks()).isEmpty();
    assertThat(result.drift().drifted()).isFalse();
    assertThat(result.notes()).anyMatch(n -> n.contains("no reference rung to re-measure"));
  }

  @Test
  void run_twoRuns_eachRechecksItsOwnReference() {
    SimulatedMeasurer m = new SimulatedMeasurer((run, n) -> (run == 0 ? 10.0 : 12.0) * n);

    LadderResult result = run(m, spec(List.of(10, 20), 2, DriftRecheck.DEFAULT));

    assertThat(result.rechecks())
        .extracting(r -> r.again().runIndex() + ":" + r.again().concurrency())
        .containsExactly("0:10", "1:10");
    assertThat(result.drift().rechecks()).extracting(QmaxRecheck::runIndex).containsExactly(0, 1);
  }

  @Test
  void run_driftCheckOff_measuresNoRecheckAndCarriesNone() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);

    LadderResult result = run(m, spec(List.of(10, 20), 1, DriftRecheck.OFF));

    assertThat(m.asked).noneMatch(a -> a.endsWith("r"));
    assertThat(result.drift()).isNull();
  }

  @Test
  void stop_duringTheRecheck_comparesNothing() {
    SimulatedMeasurer m = SimulatedMeasurer.serial(10);
    LadderRunner runner = new LadderRunner(m, LadderHooks.defaults());
    int[] calls = {0};
    m.onMeasure(() -> {
      if (++calls[0] == 3) { // N=10, N=20 (no refinement), then the re-check of N=10
        runner.stop();
      }
    });

    LadderResult result =
        runner.run(spec(List.of(10, 20), 1, DriftRecheck.DEFAULT).withRefine(false));

    assertThat(result.stopped()).isTrue();
    assertThat(result.rechecks()).isEmpty();
    assertThat(result.notes())
        .anyMatch(n -> n.contains("stopped during the drift re-check of N=10"));
  }
}
