package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RungRecording;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RefusalCostRunTest {
  private static final long S = 1_000_000_000L;

  private static RequestEvent event(Outcome outcome, int status, long completedNanos) {
    return new RequestEvent(
        RequestEvent.LoadModel.CLOSED_LOOP,
        0,
        0,
        4,
        0,
        0,
        completedNanos - S / 10,
        completedNanos - S / 10,
        outcome == Outcome.OK ? completedNanos - S / 20 : -1,
        completedNanos,
        outcome,
        status,
        0,
        10,
        null,
        ResponseBreakdown.UNKNOWN);
  }

  private static ValidateArtifact.LoadPhase closed(String name, double served, double refused) {
    return new ValidateArtifact.LoadPhase(name, "closed-loop", 12, null, served, refused, 0);
  }

  private static ValidateArtifact.LoadPhase open(double offered, double served, double refused) {
    return new ValidateArtifact.LoadPhase(
        "open_above", "open-loop", null, offered, served, refused, 0);
  }

  @Test
  void closed_eightSecondHold_countsTheTrailingSixSecondsByEndTime() {
    List<RequestEvent> events = new ArrayList<>();
    for (int i = 0; i < 80; i++) { // one ok every 0.1 s from 0.05 s to 7.95 s
      events.add(event(Outcome.OK, 200, S / 20 + i * S / 10));
    }
    for (int i = 0; i < 600; i++) { // a 503 every 10 ms from 1 s to 7 s
      events.add(event(Outcome.REJECTED, 503, S + i * S / 100));
    }
    events.add(event(Outcome.REJECTED, 408, 5 * S));
    events.add(event(Outcome.OK, 200, 8 * S + 1)); // after the hold: not counted
    RungRecording r = new RungRecording(0, 0, 12, 0, 8 * S, 9 * S, events);

    ValidateArtifact.LoadPhase p = RefusalCostRun.closed("closed_below", r, 6 * S);

    // [2 s, 8 s): oks at 2.05 … 7.95 (60), 503s at 2.00 … 6.99 (500), one 408
    assertThat(p.servedRps()).isCloseTo(10.0, within(1e-9));
    assertThat(p.refusedRps()).isCloseTo(500 / 6.0, within(1e-9));
    assertThat(p.otherRps()).isCloseTo(1 / 6.0, within(1e-9));
    assertThat(p.concurrency()).isEqualTo(12);
    assertThat(p.offeredRps()).isNull();
    assertThat(p.loadModel()).isEqualTo("closed-loop");
  }

  @Test
  void derive_openAndClosedRefusing_recordsBothWithTheirUncertainties() {
    ValidateArtifact.RefusalCost c =
        deriveAt13(14.5, 13.5, closed("closed_above", 13.0, 2000), open(21, 12, 8));

    assertThat(c.baselineServedRps()).isEqualTo(14.0);
    assertThat(c.baselineSpreadPct()).isCloseTo(100.0 / 14, within(1e-9));
    assertThat(c.refusing()).hasSize(2);
    // closed: (1 − 13/14) / 2000; open: (1 − 12/14) / 8
    assertThat(c.refusing().get(0).secondsPerRefusal()).isCloseTo(1.0 / 28_000, within(1e-12));
    assertThat(c.refusing().get(1).secondsPerRefusal()).isCloseTo(1.0 / 56, within(1e-12));
    assertThat(c.refusing().get(1).servedRequestsPerRefusal()).isCloseTo(0.25, within(1e-12));
    assertThat(c.refusing().get(1).cHyperbolicSeconds()).isCloseTo(1.0 / 48, within(1e-12));
    // spread 1/14: ±(1/28)/2000 for the storm, ±(1/28)/8 for the open loop
    assertThat(c.refusing().get(0).uncertaintySeconds()).isCloseTo(1.0 / 56_000, within(1e-12));
    assertThat(c.refusing().get(1).uncertaintySeconds()).isCloseTo(1.0 / 224, within(1e-12));
    // the open loop resolves (17.857 > 2 × 4.464 ms): a surge's regime is taken over the storm
    assertThat(c.secondsPerRefusal()).isCloseTo(1.0 / 56, within(1e-12));
    assertThat(c.from()).startsWith("open_above: the open-loop phase (a surge's regime) resolves");
  }

  @Test
  void derive_openLoopResolves_takesItOverTheStorm() {
    // baselines 14.1 / 13.9 (spread 1/70): open loop (1 − 12/14) / 8 = 17.857 ms ± (1/140)/8 =
    // 0.893 ms, resolved (17.857 > 2 × 0.893), so it is taken though the storm's ± is smaller
    ValidateArtifact.RefusalCost c =
        RefusalCostRun.derive(
            13,
            6,
            closed("closed_below", 14.1, 0),
            closed("closed_below_again", 13.9, 0),
            List.of(closed("closed_above", 13.0, 2000), open(21, 12, 8)));

    assertThat(c.secondsPerRefusal()).isCloseTo(1.0 / 56, within(1e-12));
    assertThat(c.from())
        .isEqualTo(
            "open_above: the open-loop phase (a surge's regime) resolves, 17.86 +- 0.8929 ms at"
                + " 8.0 refusals/s");
  }

  @Test
  void derive_openLoopWithinTwiceItsUncertainty_takesTheLeastMovedAndSaysWhy() {
    // spread 1/14: at served 13.2 the open loop says (1 − 13.2/14) / 8 = 7.143 ± 4.464 ms, not
    // resolved (7.143 ≤ 2 × 4.464), so the storm is taken
    ValidateArtifact.RefusalCost c =
        RefusalCostRun.derive(
            13,
            6,
            closed("closed_below", 14.5, 0),
            closed("closed_below_again", 13.5, 0),
            List.of(closed("closed_above", 13.0, 2000), open(21, 13.2, 8)));

    assertThat(c.secondsPerRefusal()).isCloseTo(1.0 / 28_000, within(1e-12));
    assertThat(c.from())
        .isEqualTo(
            "closed_above: the open-loop phase does not resolve (7.143 +- 4.464 ms); the"
                + " refusing phase the baselines' spread (7.1 %) moves least, +-0.01786 ms at"
                + " 2000.0 refusals/s");
  }

  @Test
  void derive_openLoopRefusedNothing_takesTheClosedStorm() {
    ValidateArtifact.RefusalCost c =
        deriveAt13(14, 14, closed("closed_above", 13.3, 1000), open(21, 14, 0));

    assertThat(c.refusing()).hasSize(1);
    assertThat(c.secondsPerRefusal()).isCloseTo(0.05 / 1000, within(1e-12));
    assertThat(c.from()).startsWith("closed_above: ");
  }

  @Test
  void derive_nothingRefused_hasNoFigureAndSaysWhy() {
    ValidateArtifact.RefusalCost c = deriveAt13(14, 14, closed("closed_above", 14, 0));

    assertThat(c.refusing()).isEmpty();
    assertThat(c.secondsPerRefusal()).isNull();
    assertThat(c.from()).contains("no phase refused anything");
  }

  @Test
  void summary_namesEachPhaseAndTheFigureTaken() {
    ValidateArtifact.RefusalCost c = deriveAt13(14.5, 13.5, open(21, 12, 8));

    assertThat(RefusalCostRun.summary(c))
        .isEqualTo(
            "live: refusal cost: served 14.00 req/s below queue_max_depth (14.50 before, 13.50"
                + " after); open_above 12.00 served while refusing 8.0/s: 17.857 +- 4.464 ms per"
                + " refusal; the simulator's figure (--validate): 17.857 ms");
  }

  /**
   * The refusal cost at Q_max 13 over 6 s phases, from closed-loop baselines below Q_max serving
   * {@code belowRps} and then {@code belowAgainRps} (refusing nothing), and the refusing phases.
   */
  private static ValidateArtifact.RefusalCost deriveAt13(
      double belowRps, double belowAgainRps, ValidateArtifact.LoadPhase... refusing) {
    return RefusalCostRun.derive(
        13,
        6,
        closed("closed_below", belowRps, 0),
        closed("closed_below_again", belowAgainRps, 0),
        List.of(refusing));
  }
}
