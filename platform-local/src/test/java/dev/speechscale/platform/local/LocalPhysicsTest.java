package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.platform.Physics;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LocalPhysicsTest {
  @Test
  void physics_off_isToday200MsPollingNoDelayAndTheHealthCheckBound() {
    Physics p = LocalPlatform.physics(EndpointConfig.Local.DEFAULTS);

    assertThat(p.minPollInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(p.metricPublicationDelay()).isZero();
    assertThat(p.instanceStartBound()).isEqualTo(Duration.ofSeconds(600));
  }

  @Test
  void physics_awsFigures_pollsSoThreePollersStayUnderTheLimit() {
    Physics p =
        LocalPlatform.physics(
            new EndpointConfig.Local(1.0, 600, new EndpointConfig.AwsPhysics(60, 5, 60)));

    assertThat(p.minPollInterval()).isEqualTo(Duration.ofMillis(600));
    assertThat(3 * 1000.0 / p.minPollInterval().toMillis()).isLessThanOrEqualTo(5);
    assertThat(p.metricPublicationDelay()).isEqualTo(Duration.ofSeconds(60));
    assertThat(p.instanceStartBound()).isEqualTo(Duration.ofSeconds(660));
  }

  @Test
  void physics_generousLimit_neverPollsFasterThanToday() {
    Physics p =
        LocalPlatform.physics(
            new EndpointConfig.Local(1.0, 30, new EndpointConfig.AwsPhysics(0, 1000, 0)));

    assertThat(p.minPollInterval()).isEqualTo(Duration.ofMillis(200));
    assertThat(p.instanceStartBound()).isEqualTo(Duration.ofSeconds(30));
  }
}
