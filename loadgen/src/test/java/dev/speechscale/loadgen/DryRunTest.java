package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DryRunTest {
  private static final LadderSpec KOKORO =
      LadderSpec.of(
              List.of(1, 5, 10, 20, 30, 40, 50, 60),
              Duration.ofSeconds(240),
              Duration.ofSeconds(60),
              1,
              3000)
          .withRefine(false)
          .withDrift(DriftRecheck.OFF);

  @Test
  void estimate_serialServer_completesOneOverSAtEveryRung() {
    DryRun.Estimate e =
        DryRun.estimate(KOKORO, DryRun.ServiceAssumption.serial(Duration.ofMillis(61)));

    for (DryRun.Row row : e.rows()) {
      assertThat(row.throughputPerSecond()).isCloseTo(1000 / 61.0, within(1e-9));
    }
    DryRun.Row n50 = e.rows().get(6);
    assertThat(n50.concurrency()).isEqualTo(50);
    assertThat(n50.requests()).isEqualTo(Math.round(50 + 240 * 1000 / 61.0));
    assertThat(n50.windowRequests()).isEqualTo(Math.round(60 * 1000 / 61.0));
    // the published N*hold/S would have said 50 * 240 / 0.061 = 196721
    assertThat(n50.requests()).isLessThan(4000);
  }

  @Test
  void estimate_wallClock_isHoldPlusDrainPerRung() {
    DryRun.Estimate e =
        DryRun.estimate(KOKORO, DryRun.ServiceAssumption.serial(Duration.ofMillis(100)));

    long drainMs = (1 + 5 + 10 + 20 + 30 + 40 + 50 + 60) * 100L;
    assertThat(e.wallClock()).isEqualTo(Duration.ofMinutes(32).plusMillis(drainMs));
    assertThat(e.requests()).isEqualTo(e.rows().stream().mapToLong(DryRun.Row::requests).sum());
  }

  @Test
  void estimate_warmup_addsItsHoldDrainAndRequestsButNoRung() {
    DryRun.ServiceAssumption s = DryRun.ServiceAssumption.serial(Duration.ofMillis(100));
    DryRun.Estimate without = DryRun.estimate(KOKORO, s);
    DryRun.Estimate with = DryRun.estimate(KOKORO.withWarmup(Duration.ofSeconds(20)), s);

    assertThat(without.warmup()).isNull();
    DryRun.Row w = with.warmup();
    assertThat(w.concurrency()).isEqualTo(4);
    assertThat(w.requests()).isEqualTo(4 + 200); // a serial server: 10 req/s for 20 s
    assertThat(with.rows()).isEqualTo(without.rows());
    assertThat(with.wallClock().minus(without.wallClock()))
        .isEqualTo(Duration.ofSeconds(20).plusMillis(400));
    assertThat(with.requests() - without.requests()).isEqualTo(204);
  }

  @Test
  void estimate_settle_isAddedBeforeEveryRungButTheFirst() {
    LadderSpec spec = KOKORO.withSettle(Duration.ofSeconds(30));
    DryRun.ServiceAssumption s = DryRun.ServiceAssumption.serial(Duration.ofMillis(100));

    Duration with = DryRun.estimate(spec, s).wallClock();
    Duration without = DryRun.estimate(KOKORO, s).wallClock();

    assertThat(with.minus(without)).isEqualTo(Duration.ofSeconds(7 * 30));
  }

  @Test
  void estimate_parallelServer_scalesThroughputUpToItsSlots() {
    DryRun.Estimate e =
        DryRun.estimate(
            KOKORO, new DryRun.ServiceAssumption(Duration.ofMillis(100), Duration.ofMillis(20), 4));

    assertThat(e.rows().get(0).throughputPerSecond()).isCloseTo(10, within(1e-9));
    assertThat(e.rows().get(1).throughputPerSecond()).isCloseTo(40, within(1e-9));
    assertThat(e.rows().get(1).predictedTtfabMs()).isCloseTo(20 + 0.25 * 100, within(1e-9));
  }

  @Test
  void estimate_publishedKokoro_predictsQmaxAndSimulatesTheBisection() {
    LadderSpec spec = KOKORO.withRefine(true);
    DryRun.ServiceAssumption s =
        new DryRun.ServiceAssumption(Duration.ofMillis(56), Duration.ofMillis(56), 1);

    DryRun.Estimate e = DryRun.estimate(spec, s);

    // TTFAB(N) = 56 + (N-1)*56 ms <= 3000 -> N <= 53
    assertThat(e.predictedQmax()).isEqualTo(53);
    assertThat(e.rows())
        .filteredOn(r -> r.phase() == RungReport.Phase.BISECT)
        .extracting(DryRun.Row::concurrency)
        .containsExactly(55, 52, 53, 54);
    assertThat(e.model()).contains("1 service slot", "S=56.0 ms");
  }

  @Test
  void estimate_defaultDriftCheck_remeasuresTheHighestPassingCoarseRungAtTheEnd() {
    LadderSpec spec = KOKORO.withRefine(true).withDrift(DriftRecheck.DEFAULT);
    DryRun.ServiceAssumption s =
        new DryRun.ServiceAssumption(Duration.ofMillis(56), Duration.ofMillis(56), 1);

    DryRun.Estimate e = DryRun.estimate(spec, s);
    DryRun.Estimate without = DryRun.estimate(KOKORO.withRefine(true), s);

    // coarse 50 passes (2800 ms), 60 breaches: 50 is the reference, bisection runs 50..60
    DryRun.Row last = e.rows().getLast();
    assertThat(last.phase()).isEqualTo(RungReport.Phase.RECHECK);
    assertThat(last.concurrency()).isEqualTo(50);
    assertThat(last.stepIndex()).isEqualTo(e.rows().size() - 1);
    assertThat(e.rows()).filteredOn(r -> r.phase() == RungReport.Phase.RECHECK).hasSize(1);
    assertThat(e.wallClock().minus(without.wallClock())).isEqualTo(last.wallTime());
    assertThat(last.wallTime()).isEqualTo(Duration.ofSeconds(240).plusMillis(50 * 56));
  }

  @Test
  void estimate_recheckBetweenBisectionSteps_interleavesTheReferenceRung() {
    LadderSpec spec =
        KOKORO.withRefine(true).withDrift(new DriftRecheck(DriftRecheck.Mode.BISECTION, 10, 15));
    DryRun.ServiceAssumption s =
        new DryRun.ServiceAssumption(Duration.ofMillis(56), Duration.ofMillis(56), 1);

    DryRun.Estimate e = DryRun.estimate(spec, s);

    assertThat(e.rows())
        .filteredOn(r -> r.phase() != RungReport.Phase.COARSE)
        .extracting(r -> r.phase().name().charAt(0) + "" + r.concurrency())
        .containsExactly("B55", "R50", "B52", "R50", "B53", "R50", "B54", "R50");
  }

  @Test
  void estimate_noRungPredictedToPass_hasNoRecheck() {
    DryRun.Estimate e =
        DryRun.estimate(
            KOKORO.withDrift(DriftRecheck.DEFAULT),
            DryRun.ServiceAssumption.serial(Duration.ofSeconds(4)));

    assertThat(e.rows()).noneMatch(r -> r.phase() == RungReport.Phase.RECHECK);
  }

  @Test
  void assumption_firstAudioAfterService_refused() {
    assertThatThrownBy(
            () -> new DryRun.ServiceAssumption(Duration.ofMillis(10), Duration.ofMillis(20), 1))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("first audio");
  }

  @Test
  void assumption_zeroParallelism_refused() {
    assertThatThrownBy(
            () -> new DryRun.ServiceAssumption(Duration.ofMillis(10), Duration.ofMillis(5), 0))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("serial server");
  }
}
