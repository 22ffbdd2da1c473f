package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.Backoff;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * One owner for retries: the chain wraps every platform in {@link RetryingPlatform} (10 attempts),
 * and the SDK clients retry on their own ({@value AwsApis#CONTROL_PLANE_ATTEMPTS}); counted on the
 * wire, a request throttled on every attempt is sent only the SDK's ceiling, not their product.
 */
class AwsRetryOwnerTest {
  private WireAws aws;

  @BeforeEach
  void start() throws IOException {
    aws = new WireAws(Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    aws.close();
  }

  @Test
  void describe_throttledOnEveryAttemptThroughTheChainsWrapper_isSentTheSdkCeilingOnly() {
    aws.throttle("DescribeEndpoint", 100);
    try (AwsPlatform p =
        new AwsPlatform(
            aws.clients(),
            new AwsPlatform.Settings(WireAws.REGION, null, aws.uri(), Duration.ofSeconds(60)),
            Clock.systemUTC())) {
      // the chain's own wrapper, its waits skipped: only the SDK's backoff takes real time
      RetryingPlatform chain =
          new RetryingPlatform(p, Clock.systemUTC(), d -> {}, Backoff.THROTTLING, 1);

      assertThatThrownBy(() -> chain.describe(AwsFixtures.WIRE_ENDPOINT))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("DescribeEndpoint")
          .hasMessageContaining(AwsApis.CONTROL_PLANE_ATTEMPTS + " attempts")
          .satisfies(e ->
              assertThat(((PlatformException) e).reason())
                  .isInstanceOf(PlatformException.Reason.Throttled.class));
    }
    assertThat(aws.served("DescribeEndpoint")).isEqualTo(AwsApis.CONTROL_PLANE_ATTEMPTS);
  }
}
