package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The shared platform contract, run against {@link AwsPlatform} over fakes of its own narrow client
 * interfaces ({@link FakeAws}) and, for invocations, the real SDK against a local event-stream
 * server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsPlatformContractTest extends PlatformContract {
  private FakeAws aws;
  private LocalRuntimeServer runtime;
  private AwsPlatform platform;

  @BeforeAll
  void deploy() throws IOException {
    aws = new FakeAws(Clock.systemUTC());
    runtime = new LocalRuntimeServer();
    runtime.reply(
        new LocalRuntimeServer.Reply.Stream(LocalRuntimeServer.wavFrames(4800, 44, 2400)));
    platform =
        new AwsPlatform(
            aws.clients(),
            new AwsPlatform.Settings("us-east-1", null, runtime.uri(), Duration.ofSeconds(90)),
            Clock.systemUTC());
  }

  @AfterAll
  void tearDown() {
    platform.close();
    runtime.close();
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
        return AwsFixtures.ENDPOINT;
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
        aws.completeUpdate();
        assertThat(aws.current()).as("in-service instances after the update").isEqualTo(count);
      }

      @Override
      public Transport invokableTransport() {
        return Transport.RESPONSE_STREAM;
      }
    };
  }
}
