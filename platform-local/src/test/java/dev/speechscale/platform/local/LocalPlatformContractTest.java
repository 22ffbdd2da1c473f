package dev.speechscale.platform.local;

import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformContract;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The shared platform contract, against a real local endpoint with scaling attached. */
class LocalPlatformContractTest extends PlatformContract {
  @TempDir static Path dir;
  static LocalEndpoint endpoint;

  @BeforeAll
  static void deploy() throws Exception {
    endpoint =
        LocalEndpoint.deploy(
            dir,
            "contract",
            """
            models:
              contract:
                engine: flite
                instance_type: local.1cpu
                min_instances: 1
                max_instances: 2
                scaling_target_value: 3.0
                scale_in_threshold: 1.5
                scale_out_cooldown_s: 30
                scale_in_cooldown_s: 300
                ttfab_slo_ms: 1000
                queue_max_depth: 8
            """,
            true);
  }

  @AfterAll
  static void destroy() {
    endpoint.close();
  }

  @Override
  protected Fixture fixture() {
    return new Fixture() {
      @Override
      public Platform platform() {
        return endpoint.platform;
      }

      @Override
      public String endpoint() {
        return endpoint.endpoint();
      }

      @Override
      public double scalingTargetValue() {
        return 3.0;
      }

      @Override
      public double scaleInThreshold() {
        return 1.5;
      }

      @Override
      public void awaitInServiceInstances(int count, Duration timeout) {
        LocalEndpoint.await(
            count + " in-service instances",
            timeout,
            () -> {
              var d = endpoint.platform.describe(endpoint.endpoint());
              return d.currentInstances() == count && d.desiredInstances() == count;
            });
      }

      @Override
      public Transport invokableTransport() {
        return Transport.HTTP_STREAM;
      }
    };
  }
}
