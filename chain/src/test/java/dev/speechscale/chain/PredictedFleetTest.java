package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.simulator.PolicyResult.ScalingEvent;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PredictedFleetTest {

  @Test
  void of_scaleOutThenIn_countsTheNewInstanceFromItsInServiceSecond() {
    List<ScalingEvent> events =
        List.of(
            new ScalingEvent(10, 1, 2, "target tracking", OptionalLong.of(15)),
            new ScalingEvent(30, 2, 1, "step scale-in", OptionalLong.empty()));

    PredictedFleet fleet = PredictedFleet.of(events, 1, 40);

    assertThat(fleet.desired().subList(0, 10)).containsOnly(1);
    assertThat(fleet.desired().subList(10, 30)).containsOnly(2);
    assertThat(fleet.desired().subList(30, 40)).containsOnly(1);
    assertThat(fleet.inService().subList(0, 15)).containsOnly(1);
    assertThat(fleet.inService().subList(15, 30)).containsOnly(2);
    assertThat(fleet.inService().subList(30, 40)).containsOnly(1);
  }

  @Test
  void of_scaleInBeforeTheNewInstanceArrives_cancelsTheStartingOneFirst() {
    List<ScalingEvent> events =
        List.of(
            new ScalingEvent(5, 1, 2, "target tracking", OptionalLong.of(20)),
            new ScalingEvent(8, 2, 1, "step scale-in", OptionalLong.empty()));

    PredictedFleet fleet = PredictedFleet.of(events, 1, 30);

    assertThat(fleet.inService()).isEqualTo(Collections.nCopies(30, 1));
    assertThat(fleet.desired().subList(5, 8)).containsOnly(2);
    assertThat(fleet.desired().subList(8, 30)).containsOnly(1);
  }
}
