package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.ArtifactException;
import dev.speechscale.artifacts.FleetFigures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveReplayTest {
  static LiveReplay replay(
      List<LiveReplay.Request> requests, List<LiveReplay.CapacitySample> samples) {
    return new LiveReplay(
        new LiveReplay.Origin("speech-x", "local", Instant.EPOCH, Duration.ofSeconds(60)),
        new LiveReplay.Schedule("step 2 -> 20 -> 2 req/s", 180, 60.0, 1, Duration.ofMillis(200)),
        requests,
        samples,
        0,
        null);
  }

  @Test
  void surgeToInServiceS_secondInstanceAfterSurge_isTheFirstSampleShowingIt() {
    List<LiveReplay.CapacitySample> samples =
        List.of(
            new LiveReplay.CapacitySample(0, 1, 1),
            new LiveReplay.CapacitySample(59.9, 1, 1),
            new LiveReplay.CapacitySample(90.2, 2, 1),
            new LiveReplay.CapacitySample(98.4, 2, 2),
            new LiveReplay.CapacitySample(98.6, 2, 2));

    assertThat(replay(List.of(), samples).surgeToInServiceS()).isCloseTo(38.4, within());
  }

  @Test
  void surgeToInServiceS_noScaleOut_isNull() {
    List<LiveReplay.CapacitySample> samples =
        List.of(new LiveReplay.CapacitySample(0, 1, 1), new LiveReplay.CapacitySample(170, 1, 1));

    assertThat(replay(List.of(), samples).surgeToInServiceS()).isNull();
  }

  @Test
  void figures_requestsAndSamples_areCountedPerMinute() {
    List<LiveReplay.Request> requests = new ArrayList<>();
    for (int i = 1; i <= 100; i++) {
      requests.add(new LiveReplay.Request(i * 0.5, (double) i, LiveReplay.Status.OK));
    }
    requests.add(new LiveReplay.Request(70, null, LiveReplay.Status.SHED));
    requests.add(new LiveReplay.Request(71, null, LiveReplay.Status.ERROR));
    requests.add(new LiveReplay.Request(72, null, LiveReplay.Status.DROPPED));
    requests.add(new LiveReplay.Request(121, 40.0, LiveReplay.Status.OK));
    List<LiveReplay.CapacitySample> samples =
        List.of(new LiveReplay.CapacitySample(0, 1, 1), new LiveReplay.CapacitySample(90, 2, 2));

    FleetFigures f = replay(requests, samples).figures();

    assertThat(f.arrivals()).isEqualTo(104);
    assertThat(f.ok()).isEqualTo(101);
    assertThat(f.shed()).isEqualTo(1);
    assertThat(f.errors()).isEqualTo(2);
    assertThat(f.shedFraction()).isCloseTo(1 / 104.0, within());
    assertThat(f.minutes()).hasSize(3);
    // minute 0: the first 119 requests at 0.5 s steps are i = 1..119 capped at 100; p95 of 1..100
    assertThat(f.minutes().get(0).p95TtfabMs()).isCloseTo(95.05, within());
    assertThat(f.minutes().get(0).arrivals()).isEqualTo(100);
    assertThat(f.minutes().get(1).arrivals()).isEqualTo(3);
    assertThat(f.minutes().get(1).shed()).isEqualTo(1);
    assertThat(f.minutes().get(1).p95TtfabMs()).isNull();
    assertThat(f.minutes().get(2).p95TtfabMs()).isEqualTo(40.0);
    assertThat(f.inServicePerSecond()).hasSize(180);
    assertThat(f.inServicePerSecond().get(89)).isEqualTo(1);
    assertThat(f.inServicePerSecond().get(90)).isEqualTo(2);
    assertThat(f.minutes().get(1).meanInService()).isCloseTo(1.5, within());
    assertThat(f.surgeToInServiceS()).isCloseTo(30.0, within());
  }

  @Test
  void fleetFigures_countsThatDoNotAddUp_areRefused() {
    assertThatThrownBy(() -> new FleetFigures(10, 5, 1, 1, null, List.of(), List.of(), List.of()))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("ok 5 + shed 1 + errors 1 != arrivals 10");
  }

  private static org.assertj.core.data.Offset<Double> within() {
    return org.assertj.core.data.Offset.offset(1e-9);
  }
}
