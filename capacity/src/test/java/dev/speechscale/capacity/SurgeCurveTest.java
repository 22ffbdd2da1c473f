package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SurgeCurveTest {

  @Test
  void thresholds_smallQmax_everyWholeThresholdBelowItPlusThePlannedAndRecommended() {
    assertThat(SurgeCurve.thresholds(6, 4.5, 2.0)).containsExactly(1.0, 2.0, 3.0, 4.0, 4.5, 5.0);
  }

  @Test
  void thresholds_largeQmax_atMostTheCapPlusTheEnds() {
    List<Double> t = SurgeCurve.thresholds(200, 160.0, 37.0);

    assertThat(t).hasSizeLessThanOrEqualTo(SurgeCurve.MAX_WHOLE_THRESHOLDS + 3);
    assertThat(t).contains(1.0, 160.0, 37.0, 199.0).isSorted();
  }

  @Test
  void thresholds_qmaxOne_onlyThePlannedThreshold() {
    assertThat(SurgeCurve.thresholds(1, 0.9, null)).containsExactly(0.9);
  }

  @Test
  void of_stepBetweenCoarseThresholds_fillsInEveryWholeThresholdOfTheStep() {
    // coarse grid on Q_max 73: 1, 4, 7, ...; the probability jumps between 10 and 13
    List<Double> asked = new ArrayList<>();
    SurgeCurve.Shed step =
        c -> {
          asked.add(c);
          return c >= 12 ? 1.0 : 0.0;
        };

    List<SurgeCurve.Point> curve = SurgeCurve.of(step, 73, 54.75, 11.0);

    assertThat(curve)
        .extracting(SurgeCurve.Point::cScaleMax)
        .contains(10.0, 11.0, 12.0, 13.0)
        .doesNotContain(2.0, 5.0)
        .isSorted();
    assertThat(asked).doesNotHaveDuplicates();
  }

  @Test
  void of_flatCurve_simulatesOnlyTheCoarseThresholds() {
    List<SurgeCurve.Point> curve = SurgeCurve.of(c -> 0.5, 73, 54.75, null);

    assertThat(curve).hasSize(SurgeCurve.thresholds(73, 54.75, null).size());
  }

  @Test
  void of_kokoroPlan_pointAtCScaleMaxIsThePlansShedProbability() {
    Plan p =
        Planner.plan(
            KokoroExample.measurement(), KokoroExample.scaleOut(), KokoroExample.scenario());

    List<SurgeCurve.Point> curve =
        SurgeCurve.of(
            KokoroExample.measurement(), KokoroExample.scaleOut(), KokoroExample.scenario(), p);

    assertThat(curve)
        .filteredOn(pt -> pt.cScaleMax() == p.cScaleMax())
        .singleElement()
        .extracting(SurgeCurve.Point::shedProbability)
        .isEqualTo(p.shedProbability());
    assertThat(curve)
        .filteredOn(pt -> pt.cScaleMax() == p.recommendedCScaleMax())
        .singleElement()
        .satisfies(pt -> assertThat(pt.shedProbability()).isLessThanOrEqualTo(0.10));
  }
}
