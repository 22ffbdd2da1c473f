package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class FleetCostTest {
  private static final double PRICE = 1.408;

  /** The published Kokoro-82M plan: 1 instance at 10 req/s, 280 at 5000 req/s. */
  private static FleetCost kokoro(Double audioSeconds) {
    return FleetCost.of(
        PRICE, 1, 280, new Load.RequestRate(10), new Load.RequestRate(5000), audioSeconds);
  }

  @Test
  void of_kokoroFleet_pricesEachHourByItsInstances() {
    FleetCost c = kokoro(null);

    assertThat(c.trough().instances()).isEqualTo(1);
    assertThat(c.trough().usdPerHour()).isCloseTo(1.408, within(1e-12));
    assertThat(c.peak().instances()).isEqualTo(280);
    assertThat(c.peak().usdPerHour()).isCloseTo(394.24, within(1e-9));
  }

  @Test
  void of_requestRates_dividesTheHourByTheRequestsItServes() {
    FleetCost c = kokoro(null);

    // 1.408 / (10 x 3600) x 1e6 and 394.24 / (5000 x 3600) x 1e6
    assertThat(c.trough().usdPerMillionRequests()).isCloseTo(39.1111, within(1e-4));
    assertThat(c.peak().usdPerMillionRequests()).isCloseTo(21.9022, within(1e-4));
  }

  @Test
  void of_audioPerRequestKnown_pricesAnHourOfAudio() {
    FleetCost c = kokoro(2.0);

    // peak: 5000 req/s x 2 s = 10000 s of audio per second = 10000 audio hours per hour
    assertThat(c.peak().usdPerAudioHour()).isCloseTo(394.24 / 10000, within(1e-12));
    assertThat(c.trough().usdPerAudioHour()).isCloseTo(1.408 / 20, within(1e-12));
    assertThat(c.omitted()).isEmpty();
    assertThat(c.describePeak())
        .isEqualTo(
            "280 instances x $1.408 = $394.24/hour; $21.90 per million requests at 5000 req/s;"
                + " $0.0394 per audio hour (2.00 s of audio per request)");
  }

  @Test
  void of_audioNotRecorded_omitsThePerAudioHourFigureAndSaysWhy() {
    FleetCost c = kokoro(null);

    assertThat(c.peak().usdPerAudioHour()).isNull();
    assertThat(c.trough().usdPerAudioHour()).isNull();
    assertThat(c.omitted())
        .containsExactly(
            "$ per audio hour: the qmax artifact records no audio duration per request, so it is"
                + " not computed");
    assertThat(c.describeTrough())
        .isEqualTo("1 instance x $1.408 = $1.41/hour; $39.11 per million requests at 10 req/s");
  }

  @Test
  void of_streams_givesDollarsPerHourButNoPerRequestFigure() {
    FleetCost c = FleetCost.of(2, 3, 10, null, new Load.Streams(400), 1.5);

    assertThat(c.peak().usdPerHour()).isEqualTo(20);
    assertThat(c.peak().usdPerMillionRequests()).isNull();
    assertThat(c.peak().usdPerAudioHour()).isNull();
    assertThat(c.trough().usdPerHour()).isEqualTo(6);
    assertThat(c.omitted())
        .anySatisfy(s -> assertThat(s).contains("no trough load was given"))
        .anySatisfy(s -> assertThat(s).contains("the peak load is 400 streams"));
  }

  @Test
  void of_zeroPrice_isRefusedWithAnExample() {
    assertThatThrownBy(() -> FleetCost.of(0, 1, 2, null, new Load.RequestRate(1), null))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("price per hour (0.0 USD) must be a positive number");
  }
}
