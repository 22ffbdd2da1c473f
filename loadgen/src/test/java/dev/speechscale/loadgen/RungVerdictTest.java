package dev.speechscale.loadgen;

import static dev.speechscale.loadgen.Events.MS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.RungStability;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RungVerdictTest {
  /** Two workers back to back over [0, 1000) ms, each request 100 ms, TTFAB 50 ms. */
  private static List<RequestEvent> steady() {
    List<RequestEvent> events = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      for (int t = 0; t < 1000; t += 100) {
        events.add(Events.ok(w, t, 50, t + 100));
      }
    }
    return events;
  }

  private static RungVerdict judge(List<RequestEvent> events, int n) {
    return RungVerdict.judge(WindowStats.compute(events, n, 0, 1000 * MS), 0, List.of());
  }

  @Test
  void judge_steadyClosedLoop_usable() {
    RungVerdict v = judge(steady(), 2);

    assertThat(v).isInstanceOf(RungVerdict.Usable.class);
    assertThat(v.reason()).isNull();
    assertThat(v.name()).isEqualTo("usable");
  }

  @Test
  void judge_instanceCountChanged_capacityChanged() {
    RungVerdict v =
        RungVerdict.judge(WindowStats.compute(steady(), 2, 0, 1000 * MS), 0, List.of(1, 2));

    assertThat(v).isInstanceOf(RungVerdict.CapacityChanged.class);
    assertThat(v.reason()).contains("[1, 2]");
  }

  @Test
  void judge_nothingEnded_nothingCompleted() {
    RungVerdict v = judge(List.of(Events.ok(0, 0, 50, 5000)), 1);

    assertThat(v).isInstanceOf(RungVerdict.NothingCompleted.class);
    assertThat(v.reason()).contains("nothing completed");
  }

  @Test
  void judge_overlap_workerOverlap() {
    RungVerdict v =
        RungVerdict.judge(WindowStats.compute(steady(), 2, 0, 1000 * MS), 3, List.of(1));

    assertThat(v).isInstanceOf(RungVerdict.WorkerOverlap.class);
    assertThat(v.reason()).contains("3 request(s)", "N=2");
  }

  @Test
  void judge_twoPercentRejections_saturated() {
    List<RequestEvent> events = new ArrayList<>(steady());
    events.subList(0, 1).clear();
    events.add(Events.rejected(0, 0, 1));
    RungVerdict v = judge(events, 2);

    assertThat(v).isInstanceOf(RungVerdict.Saturated.class);
    assertThat(v.reason()).contains("1 of 18", "MAX_QUEUE_DEPTH");
  }

  @Test
  void judge_serverErrors_failing() {
    List<RequestEvent> events = new ArrayList<>(steady());
    events.add(Events.failed(0, 0, 1));
    RungVerdict v = judge(events, 2);

    assertThat(v).isInstanceOf(RungVerdict.Failing.class);
    assertThat(v.reason()).contains("SERVER_ERROR");
  }

  @Test
  void judge_gapsBetweenRequests_clientBound() {
    List<RequestEvent> events = new ArrayList<>();
    for (int t = 0; t < 1000; t += 100) {
      events.add(Events.ok(0, t, 50, t + 90)); // 10 ms of client turnaround per request
    }
    RungVerdict v = judge(events, 1);

    assertThat(v).isInstanceOf(RungVerdict.ClientBound.class);
    assertThat(v.reason()).contains("0.90", "10.0% short of N=1");
  }

  @Test
  void judge_shortfallOfFourPercent_stillUsable() {
    List<RequestEvent> events = new ArrayList<>();
    for (int t = 0; t < 1000; t += 100) {
      events.add(Events.ok(0, t, 50, t + 96));
    }
    assertThat(judge(events, 1).usable()).isTrue();
  }

  @Test
  void judge_climbingTtfab_notSettled() {
    List<RequestEvent> events = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      events.add(Events.ok(0, i * 100L, 10 + i * 10L, i * 100L + 100));
    }
    events.add(Events.ok(0, 1000, 5, 1100)); // in flight at the window's end

    RungVerdict v = judge(events, 1);

    assertThat(v).isInstanceOf(RungVerdict.NotSettled.class);
    assertThat(v.reason()).contains("drifted 60.0 ms", "p95 86.0 ms");
  }

  @Test
  void judge_saturatedAndClientBound_reportsSaturationFirst() {
    List<RequestEvent> events = new ArrayList<>();
    for (int t = 0; t < 1000; t += 10) {
      events.add(Events.rejected(0, t, t + 1)); // fast 503s leave the worker mostly idle
    }
    assertThat(judge(events, 1)).isInstanceOf(RungVerdict.Saturated.class);
  }

  private static RungStability unstable() {
    // windows of 10, 8, 10, 8, 10 req/s at p95 50 ms; the last three spread 14.3 %
    List<RungStability.Window> windows = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      windows.add(
          new RungStability.Window(
              1.0 + i, 2.0 + i, i % 2 == 0 ? 10 : 8, i % 2 == 0 ? 10 : 8, 50.0, i >= 2));
    }
    return new RungStability(3, 10, 6, false, 100.0 / 7, 0.0, windows);
  }

  @Test
  void judge_windowsNeverAgreed_unstableWithTheFigures() {
    RungVerdict v =
        RungVerdict.judge(WindowStats.compute(steady(), 2, 0, 1000 * MS), 0, List.of(), unstable());

    assertThat(v).isInstanceOf(RungVerdict.Unstable.class);
    assertThat(v.usable()).isFalse();
    assertThat(v.name()).isEqualTo("unstable");
    assertThat(v.reason())
        .startsWith("unstable: held to the max hold (6 s), 5 windows, and no 3 in a row agreed")
        .contains("within 10 % (the last 3: throughput spread 14.3 %, p95 spread 0.0 %)")
        .contains("raise --max-hold");
  }

  @Test
  void judge_unstableAndSaturated_reportsSaturationFirst() {
    List<RequestEvent> events = new ArrayList<>();
    for (int t = 0; t < 1000; t += 10) {
      events.add(Events.rejected(0, t, t + 1));
    }
    RungVerdict v =
        RungVerdict.judge(WindowStats.compute(events, 1, 0, 1000 * MS), 0, List.of(), unstable());

    assertThat(v).isInstanceOf(RungVerdict.Saturated.class);
  }

  @Test
  void judge_stableWindows_usable() {
    RungStability stable = new RungStability(3, 10, 6, true, 0.0, 0.0, unstable().windows());

    assertThat(
            RungVerdict.judge(WindowStats.compute(steady(), 2, 0, 1000 * MS), 0, List.of(), stable))
        .isInstanceOf(RungVerdict.Usable.class);
  }
}
