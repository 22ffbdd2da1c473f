package dev.speechscale.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FleetSizingTest {

  @Test
  void instances_publishedPeak_isSizedFromMeasuredThroughput() {
    assertThat(FleetSizing.instances(new Load.RequestRate(5000), 37.5, 17.8875)).isEqualTo(280);
  }

  @Test
  void naive_publishedPeak_isThePublishedNine() {
    assertThat(FleetSizing.naive(5000, 0.06132258724884511, 37.5)).isEqualTo(9);
  }

  @Test
  void instances_streams_divideByTheThreshold() {
    assertThat(FleetSizing.instances(new Load.Streams(75), 37.5, 0)).isEqualTo(2);
    assertThat(FleetSizing.instances(new Load.Streams(76), 37.5, 0)).isEqualTo(3);
  }

  @Test
  void instances_exactMultipleWithRepresentationError_isNotRoundedUp() {
    assertThat(FleetSizing.instances(new Load.RequestRate(0.3), 1, 0.1)).isEqualTo(3);
  }

  @Test
  void instances_zeroLoad_needsNone_andAnyLoadNeedsOne() {
    assertThat(FleetSizing.instances(new Load.RequestRate(0), 37.5, 17.9)).isZero();
    assertThat(FleetSizing.instances(new Load.RequestRate(0.001), 37.5, 17.9)).isEqualTo(1);
  }

  @Test
  void instances_rateWithoutThroughput_isRefused() {
    assertThatThrownBy(() -> FleetSizing.instances(new Load.RequestRate(10), 37.5, 0))
        .isInstanceOf(CapacityException.class)
        .hasMessageContaining("throughput (0.0 req/s)");
  }
}
