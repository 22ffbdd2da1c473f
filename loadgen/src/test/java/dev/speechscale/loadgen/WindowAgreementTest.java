package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Window agreement on hand-worked numbers. */
class WindowAgreementTest {
  private static List<WindowAgreement.Figures> windows(double[] rps, Double[] p95) {
    List<WindowAgreement.Figures> out = new ArrayList<>();
    for (int i = 0; i < rps.length; i++) {
      out.add(new WindowAgreement.Figures(rps[i], p95[i]));
    }
    return out;
  }

  @Test
  void of_threeWindows_spreadIsTheLargestDistanceFromTheMeanInPercentOfIt() {
    // throughput 9, 10, 11: mean 10, farthest 1 away = 10 %; p95 100, 110, 120: mean 110,
    // farthest 10 away = 9.09 %
    WindowAgreement a =
        WindowAgreement.of(windows(new double[] {9, 10, 11}, new Double[] {100.0, 110.0, 120.0}));

    assertThat(a.throughputSpreadPct()).isCloseTo(10.0, within(1e-9));
    assertThat(a.p95SpreadPct()).isCloseTo(100.0 / 11, within(1e-9));
  }

  @Test
  void within_spreadExactlyAtThePercent_agrees() {
    WindowAgreement a =
        WindowAgreement.of(windows(new double[] {9, 10, 11}, new Double[] {100.0, 110.0, 120.0}));

    assertThat(a.within(10)).isTrue();
    assertThat(a.within(9.9)).isFalse(); // the throughput's 10 % is over it
  }

  @Test
  void within_oneFigureOutside_disagrees() {
    // throughput flat, p95 500 / 500 / 650: mean 550, 100 away = 18.2 %
    WindowAgreement a =
        WindowAgreement.of(windows(new double[] {12, 12, 12}, new Double[] {500.0, 500.0, 650.0}));

    assertThat(a.throughputSpreadPct()).isZero();
    assertThat(a.p95SpreadPct()).isCloseTo(100.0 / 550 * 100, within(1e-9));
    assertThat(a.within(15)).isFalse();
    assertThat(a.within(20)).isTrue();
  }

  @Test
  void of_aWindowWithoutP95_agreesWithNothing() {
    WindowAgreement a =
        WindowAgreement.of(windows(new double[] {10, 0}, new Double[] {100.0, null}));

    assertThat(a.p95SpreadPct()).isNaN();
    assertThat(a.within(100)).isFalse();
  }

  @Test
  void of_noThroughputAtAll_hasNoRelativeSpread() {
    WindowAgreement a = WindowAgreement.of(windows(new double[] {0, 0}, new Double[] {1.0, 1.0}));

    assertThat(a.throughputSpreadPct()).isNaN();
    assertThat(a.within(100)).isFalse();
  }

  @Test
  void of_oneWindow_agreesWithItself() {
    WindowAgreement a = WindowAgreement.of(windows(new double[] {7}, new Double[] {300.0}));

    assertThat(a.throughputSpreadPct()).isZero();
    assertThat(a.within(0.1)).isTrue();
  }

  @Test
  void of_noWindows_isRefused() {
    assertThatThrownBy(() -> WindowAgreement.of(List.of()))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("no windows to compare");
  }

  @Test
  void firstAgreeing_driftThenSteady_indexOfTheFirstAgreeingRunsLastWindow() {
    // windows 0-2: throughput 20, 15, 12 (mean 15.67, 27.7 %); 1-3: 15, 12, 12.5 (mean 13.17,
    // 13.9 %); 2-4: 12, 12.5, 12.2 (mean 12.23, 2.2 %) with p95 700, 720, 710 (1.4 %): agree
    List<WindowAgreement.Figures> w =
        windows(
            new double[] {20, 15, 12, 12.5, 12.2, 12.1},
            new Double[] {500.0, 600.0, 700.0, 720.0, 710.0, 705.0});

    assertThat(WindowAgreement.firstAgreeing(w, 3, 10)).hasValue(4);
    assertThat(WindowAgreement.firstAgreeing(w, 3, 14)).hasValue(3); // 13.9 %, p95 10.9 %
    assertThat(WindowAgreement.firstAgreeing(w, 1, 10)).hasValue(0);
  }

  @Test
  void firstAgreeing_neverKInARow_isEmpty() {
    // alternating 10 / 14 req/s: three in a row have mean 11.33 (10, 14, 10) or 12.67 (14, 10,
    // 14), the farthest 2.67 away: 23.5 % or 21.1 %
    List<WindowAgreement.Figures> w =
        windows(
            new double[] {10, 14, 10, 14, 10}, new Double[] {100.0, 100.0, 100.0, 100.0, 100.0});

    assertThat(WindowAgreement.firstAgreeing(w, 3, 10)).isEmpty();
    assertThat(WindowAgreement.firstAgreeing(w, 3, 22)).hasValue(3); // 14, 10, 14: 21.1 %
  }

  @Test
  void firstAgreeing_fewerWindowsThanRequired_isEmpty() {
    List<WindowAgreement.Figures> w = windows(new double[] {10, 10}, new Double[] {100.0, 100.0});

    assertThat(WindowAgreement.firstAgreeing(w, 3, 10)).isEmpty();
  }
}
