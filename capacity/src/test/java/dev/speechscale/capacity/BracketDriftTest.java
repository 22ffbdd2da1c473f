package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bisection rungs against the coarse rungs that bracket Q_max (SLO 1000 ms). */
class BracketDriftTest {
  private static final double SLO_MS = 1000;

  /** Steps in the order measured: N, req/s, p95 ms. */
  private static Ladder ladder(double[]... steps) {
    List<Rung> rungs = new ArrayList<>();
    for (int i = 0; i < steps.length; i++) {
      double[] s = steps[i];
      rungs.add(
          new Rung(
              0, i, (int) s[0], 70, 0, s[1], s[0], s[2], null, null, null, null, true, null, null));
    }
    return Ladder.of(rungs, SLO_MS);
  }

  /** The coarse ladder 1..32 with N=8 meeting and N=16 breaching, then the given bisection. */
  private static Ladder quickstart(double low, double high, double[]... bisection) {
    List<double[]> all = new ArrayList<>();
    all.add(new double[] {1, 13, 40});
    all.add(new double[] {2, 15, 118});
    all.add(new double[] {4, 15, 300});
    all.add(new double[] {8, low, 580});
    all.add(new double[] {16, high, 1300});
    all.add(new double[] {32, 14, 2500});
    all.addAll(List.of(bisection));
    return ladder(all.toArray(double[][]::new));
  }

  @Test
  void of_bisectionFasterThanBothEnds_isBeyondAndSaysFaster() {
    // quickstart q5-3 of 2026-12-02: N=8 14.2, N=16 14.8, bisection 17.2 / 16.6 / 16.0, Q_max 15
    Ladder l =
        quickstart(
            14.2,
            14.8,
            new double[] {12, 17.2, 713},
            new double[] {14, 16.6, 961},
            new double[] {15, 16.0, 961});

    List<BracketDrift> checks = BracketDrift.of(l, 10);

    assertThat(checks).hasSize(1);
    BracketDrift b = checks.getFirst();
    assertThat(b.lowConcurrency()).isEqualTo(8);
    assertThat(b.highConcurrency()).isEqualTo(16);
    assertThat(b.insideMeanRps()).isCloseTo(16.6, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(b.deviationPct())
        .isCloseTo(100 * (16.6 - 14.8) / 14.8, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(b.beyond()).isTrue();
    assertThat(b.describe()).contains("faster").contains("12@17.2").contains("N=8 14.2");
  }

  @Test
  void of_bisectionSlowerThanBothEnds_isBeyondAndSaysSlower() {
    // the 2026-11-30 11:40 quickstart: N=8 15.4, N=16 15.2, bisection 14.0 / 13.2 / 12.4
    Ladder l =
        quickstart(
            15.4,
            15.2,
            new double[] {12, 14.0, 900},
            new double[] {14, 13.2, 1115},
            new double[] {13, 12.4, 1241});

    BracketDrift b = BracketDrift.of(l, 10).getFirst();

    assertThat(b.deviationPct())
        .isCloseTo(100 * (13.2 - 15.2) / 15.2, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(b.beyond()).isTrue();
    assertThat(b.describe()).contains("slower");
  }

  @Test
  void of_bisectionBetweenTheEnds_isZeroAndWithin() {
    Ladder l =
        quickstart(
            15.4,
            13.8,
            new double[] {12, 13.8, 800},
            new double[] {14, 14.8, 990},
            new double[] {13, 15.0, 950});

    BracketDrift b = BracketDrift.of(l, 10).getFirst();

    assertThat(b.deviationPct()).isZero();
    assertThat(b.beyond()).isFalse();
  }

  @Test
  void of_justInsideTheTolerance_isWithin() {
    Ladder l = quickstart(14.0, 14.0, new double[] {12, 15.3, 800}, new double[] {13, 15.3, 900});

    assertThat(BracketDrift.of(l, 10).getFirst().beyond()).isFalse();
    assertThat(BracketDrift.of(l, 9).getFirst().beyond()).isTrue();
  }

  @Test
  void of_noBisectionOrNoBreach_hasNoCheck() {
    assertThat(BracketDrift.of(quickstart(14, 14), 10)).isEmpty();
    Ladder allMeet =
        ladder(new double[] {1, 13, 40}, new double[] {2, 15, 118}, new double[] {4, 15, 300});
    assertThat(BracketDrift.of(allMeet, 10)).isEmpty();
  }
}
