package dev.speechscale.loadgen;

import static dev.speechscale.loadgen.Events.MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.RungStability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A rung's consecutive windows on a hand-made timeline: one worker, back-to-back requests with 50
 * ms to first audio; a 2 s hold whose trailing 1 s is the first window, then 1 s windows until
 * three agree within 10 %, held at most 6 s.
 */
class RungWindowsTest {
  private static final LadderSpec SPEC =
      LadderSpec.of(List.of(1), Duration.ofSeconds(2), Duration.ofSeconds(1), 1, 1000)
          .withStability(new StabilityRule(3, 10, Duration.ofSeconds(6)));

  /** Requests from 0 to 6000 ms, each {@code periodMs.applyAsLong(sent)} long. */
  private static List<RequestEvent> worker(LongUnaryOperator periodMs) {
    List<RequestEvent> out = new ArrayList<>();
    for (long t = 0; t < 6000; ) {
      long end = t + periodMs.applyAsLong(t);
      out.add(Events.ok(0, t, 50, end));
      t = end;
    }
    return out;
  }

  @Test
  void of_steadyRung_countsTheFirstThreeWindowsAndStopsThere() {
    // 100 ms a request: every 1 s window ends 10 requests (10 req/s, p95 50 ms)
    List<RequestEvent> events = worker(t -> 100);

    RungWindows w = RungWindows.of(events, 1, 0, 6000 * MS, SPEC);

    assertThat(w.windows()).hasSize(3);
    assertThat(w.windows()).extracting(WindowStats::ok).containsExactly(10L, 10L, 10L);
    assertThat(w.stable()).isTrue();
    assertThat(w.countedStartNanos()).isEqualTo(1000 * MS); // the hold's trailing window first
    assertThat(w.countedEndNanos()).isEqualTo(4000 * MS);
    WindowStats counted = w.counted(events, 1);
    assertThat(counted.ok()).isEqualTo(30);
    assertThat(counted.achievedRps()).isCloseTo(10.0, within(1e-9));
  }

  @Test
  void of_rateAlternatingEverySecond_neverAgreesAndCountsTheLastThree() {
    // 125 ms a request in [2, 3) s and [4, 5) s, else 100 ms: windows end 10, 8, 10, 8, 10
    // requests; three in a row spread 14.3 % (10, 8, 10) or 15.4 % (8, 10, 8), over 10 %
    List<RequestEvent> events =
        worker(t -> t >= 2000 && t < 3000 || t >= 4000 && t < 5000 ? 125 : 100);

    RungWindows w = RungWindows.of(events, 1, 0, 6000 * MS, SPEC);

    assertThat(w.windows()).extracting(WindowStats::ok).containsExactly(10L, 8L, 10L, 8L, 10L);
    assertThat(w.stable()).isFalse();
    assertThat(w.firstCounted()).isEqualTo(2);
    assertThat(w.lastCounted()).isEqualTo(4);
    assertThat(w.agreement().throughputSpreadPct()).isCloseTo(100.0 / 7, within(1e-9));
    assertThat(w.counted(events, 1).ok()).isEqualTo(28);
  }

  @Test
  void of_slowStartThenSteady_countsTheFirstAgreeingRun() {
    // 200 ms a request until 2 s (the first window ends 5), then 100 ms: windows 5, 10, 10, 10
    List<RequestEvent> events = worker(t -> t < 2000 ? 200 : 100);

    RungWindows w = RungWindows.of(events, 1, 0, 6000 * MS, SPEC);

    assertThat(w.windows()).extracting(WindowStats::ok).containsExactly(5L, 10L, 10L, 10L);
    assertThat(w.stable()).isTrue();
    assertThat(w.firstCounted()).isEqualTo(1);
    assertThat(w.countedStartNanos()).isEqualTo(2000 * MS);
    assertThat(w.countedEndNanos()).isEqualTo(5000 * MS);
  }

  @Test
  void settledBy_beforeTheThirdWindowEnds_isNotYet() {
    List<RequestEvent> events = worker(t -> 100);

    assertThat(RungWindows.settledBy(events, 1, 0, 3999 * MS, SPEC)).isFalse();
    assertThat(RungWindows.settledBy(events, 1, 0, 4000 * MS, SPEC)).isTrue();
  }

  @Test
  void of_noWindowEndedYet_isRefusedNamingTheHold() {
    assertThatThrownBy(() -> RungWindows.of(worker(t -> 100), 1, 0, 1500 * MS, SPEC))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("no measurement window of N=1 ended by 1500 ms into the rung");
  }

  @Test
  void toArtifact_windowsInSecondsFromTheRungsStartWithTheCountedOnesMarked() {
    List<RequestEvent> events = worker(t -> t < 2000 ? 200 : 100);

    RungStability s = RungWindows.of(events, 1, 0, 6000 * MS, SPEC).toArtifact(0, SPEC.stability());

    assertThat(s.windowsRequired()).isEqualTo(3);
    assertThat(s.stabilityPct()).isEqualTo(10.0);
    assertThat(s.maxHoldS()).isEqualTo(6.0);
    assertThat(s.stable()).isTrue();
    assertThat(s.throughputSpreadPct()).isZero();
    assertThat(s.p95SpreadPct()).isZero();
    assertThat(s.windows())
        .extracting(RungStability.Window::startS)
        .containsExactly(1.0, 2.0, 3.0, 4.0);
    assertThat(s.windows())
        .extracting(RungStability.Window::counted)
        .containsExactly(false, true, true, true);
    assertThat(s.windows().getFirst().achievedRps()).isCloseTo(5.0, within(1e-9));
    assertThat(s.windows().getFirst().ttfabP95Ms()).isEqualTo(50.0);
    assertThat(s.counted()).extracting(RungStability.Window::samples).containsOnly(10L);
  }
}
