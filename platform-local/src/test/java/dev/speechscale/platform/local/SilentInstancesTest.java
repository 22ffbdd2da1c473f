package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.EndpointDescription;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor's control API keeps answering while every instance is silent, with more instances
 * than cores.
 *
 * <p>The hang this guards against (reproduced with qmax then ttotal on a 2-core machine): each
 * instance's stdout was read on a virtual thread. A blocking pipe read holds its carrier thread;
 * the JDK's scheduler compensates with a spare carrier, but a spare that stays idle for its 30 s
 * keep-alive exits while the reads stay blocked. Once every carrier sits in a silent instance's
 * pipe read, no virtual thread runs again — the control API's handlers included — and every later
 * {@code status} times out. Waiting longer than that keep-alive with no control traffic is the
 * scenario itself, which is why this test idles for a fixed time rather than waiting on a
 * condition.
 */
class SilentInstancesTest {
  /** The JDK virtual-thread scheduler's keep-alive for spare carriers is 30 s; idle past it. */
  private static final Duration IDLE = Duration.ofSeconds(40);

  @TempDir Path dir;

  @Test
  void controlApi_afterIdleWithMoreSilentInstancesThanCores_stillAnswers() throws Exception {
    int instances =
        Math.min(Supervisor.HARD_CAP - 1, Runtime.getRuntime().availableProcessors() + 1);
    String yaml =
        String.format(
            Locale.ROOT,
            """
            models:
              silent: {engine: flite, instance_type: local.500mcpu, min_instances: %d, \
            max_instances: %d}
            """,
            instances,
            instances + 1);
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "silent", yaml, false)) {
      LocalEndpoint.await(
          instances + " instances in service",
          Duration.ofMinutes(2),
          () -> e.platform.describe(e.endpoint()).currentInstances() == instances);

      // as ttotal does: one more instance starts while the others are silent
      e.platform.setDesiredInstances(e.endpoint(), instances + 1);
      LocalEndpoint.await(
          (instances + 1) + " instances in service",
          Duration.ofMinutes(2),
          () -> e.platform.describe(e.endpoint()).currentInstances() == instances + 1);

      Thread.sleep(IDLE); // the scenario: no control traffic while every instance is silent

      EndpointDescription after = e.platform.describe(e.endpoint());
      assertThat(after.currentInstances()).isEqualTo(instances + 1);
      e.platform.setDesiredInstances(e.endpoint(), instances);
      assertThat(e.platform.describe(e.endpoint()).desiredInstances()).isEqualTo(instances);
    }
  }
}
