package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.EndpointDescription;
import dev.speechscale.platform.EndpointStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local.aws_physics.capacity_limit}: a scale-out past the Region's capacity fails as
 * SageMaker's does. The instance is not added, desired falls back to what runs, the endpoint stays
 * in service and DescribeEndpoint's FailureReason carries SageMaker's InsufficientInstanceCapacity
 * message.
 */
class InsufficientCapacityTest {
  @Test
  void scaleOut_pastTheCapacityLimit_failsWithSageMakersReasonAndKeepsServing(@TempDir Path dir)
      throws Exception {
    try (LocalEndpoint e =
        LocalEndpoint.deploy(
            dir,
            "scarce",
            ContractFixture.yaml(
                "scarce",
                """
                    local:
                      aws_physics: {capacity_limit: 1}
                """),
            false)) {
      assertThat(e.platform.failureReason(e.endpoint())).isEmpty();

      e.platform.setDesiredInstances(e.endpoint(), 2);

      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      Optional<String> reason = e.platform.failureReason(e.endpoint());
      while (reason.isEmpty() && Instant.now().isBefore(deadline)) {
        Thread.sleep(200); // polling for the supervisor's next reconcile, bounded above
        reason = e.platform.failureReason(e.endpoint());
      }
      EndpointDescription d = e.platform.describe(e.endpoint());
      assertThat(reason)
          .contains(
              "Unable to provision requested ML compute capacity due to"
                  + " InsufficientInstanceCapacity error");
      assertThat(d.status()).isEqualTo(EndpointStatus.IN_SERVICE);
      assertThat(d.desiredInstances()).as("desired falls back to what runs").isEqualTo(1);
      assertThat(d.currentInstances()).isEqualTo(1);
    }
  }
}
