package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.chain.Freeze;
import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The chain's restore through the real SDK against the wire fake, which refuses a capacity change
 * while the endpoint is {@code Updating} as SageMaker does: a measurement that ends with a
 * scale-out still under way puts the desired count back once the endpoint is in service, instead of
 * leaving the user to {@code thaw}.
 */
class FreezeRestoreWireTest {
  private static final String ENDPOINT = AwsFixtures.WIRE_ENDPOINT;

  @Test
  void restore_endpointStillUpdating_waitsForInServiceAndPutsTheCountBack() throws IOException {
    List<String> progress = new CopyOnWriteArrayList<>();
    try (WireAws aws = WireAws.withTheWireEndpointInService();
        AwsPlatform platform =
            new AwsPlatform(
                aws.clients(),
                new AwsPlatform.Settings(WireAws.REGION, null, aws.uri(), Duration.ofSeconds(60)),
                Clock.systemUTC())) {
      Freeze freeze =
          Freeze.pin(
              platform, ENDPOINT, 1, Duration.ofSeconds(90), Clock.systemUTC(), progress::add);
      // a scale-out under way when the measurement ends: a second speech-server is starting
      platform.setDesiredInstances(ENDPOINT, 2);
      assertThat(platform.describe(ENDPOINT).status()).isEqualTo(EndpointStatus.UPDATING);

      freeze.close();

      EndpointDescription after = platform.describe(ENDPOINT);
      assertThat(after.desiredInstances()).isEqualTo(1);
      assertThat(after.status()).isEqualTo(EndpointStatus.IN_SERVICE);
      assertThat(platform.scalingState(ENDPOINT).target().orElseThrow().suspended())
          .isEqualTo(dev.speechscale.platform.SuspendedState.NONE);
      assertThat(aws.served())
          .filteredOn(s -> s.operation().equals("UpdateEndpointWeightsAndCapacities"))
          .extracting(WireAws.Served::errorCode)
          .as("the restore waited for InService instead of being refused")
          .containsOnlyNulls();
    }
    assertThat(progress).anyMatch(line -> line.startsWith("restored " + ENDPOINT + ": desired 1"));
  }
}
