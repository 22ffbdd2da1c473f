package dev.speechscale.platform.aws;

import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformContract;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The shared platform contract, run against {@link AwsPlatform} over the real SDK clients (built by
 * {@link AwsApis#sdk}, adaptive retry and all) talking to {@link WireAws}: every call is
 * marshalled, signed, sent over HTTP, answered in the service's own protocol and unmarshalled. The
 * endpoint's instances are real speech-server processes (flite): the scale-out's log stream is what
 * the new server printed, and the invocation is real synthesis streamed back as event-stream
 * payload parts. The whole suite applies; nothing is skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsWireContractTest extends PlatformContract {
  private WireAws aws;
  private AwsPlatform platform;

  @BeforeAll
  void deploy() throws IOException {
    aws = WireAws.withTheWireEndpointInService();
    platform =
        new AwsPlatform(
            aws.clients(),
            new AwsPlatform.Settings(WireAws.REGION, null, aws.uri(), Duration.ofSeconds(90)),
            Clock.systemUTC());
  }

  @AfterAll
  void tearDown() throws IOException {
    platform.close();
    aws.close();
    WireFigures.write(getClass(), aws.served());
  }

  @Override
  protected Fixture fixture() {
    return new Fixture() {
      @Override
      public Platform platform() {
        return platform;
      }

      @Override
      public String endpoint() {
        return AwsFixtures.WIRE_ENDPOINT;
      }

      @Override
      public double scalingTargetValue() {
        return 37.5;
      }

      @Override
      public double scaleInThreshold() {
        return 25.0;
      }

      @Override
      public void awaitInServiceInstances(int count, Duration timeout) {
        aws.services().awaitInService(AwsFixtures.WIRE_ENDPOINT, count, timeout);
      }

      @Override
      public Transport invokableTransport() {
        return Transport.RESPONSE_STREAM;
      }
    };
  }
}
