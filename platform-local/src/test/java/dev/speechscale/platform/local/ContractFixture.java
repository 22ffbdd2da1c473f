package dev.speechscale.platform.local;

import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformContract;
import dev.speechscale.platform.Transport;
import java.time.Duration;

/**
 * The shared platform contract's fixture for a local endpoint deployed from {@link #yaml}: the
 * plan's numbers as that YAML gives them, invoked over HTTP streaming; how to wait for in-service
 * instances is the test's (the raw platform or the retrying path).
 */
record ContractFixture(Platform platform, String endpoint, Awaiter awaiter)
    implements PlatformContract.Fixture {

  /**
   * Waits until {@code count} instances are in service and desired, or fails by {@code timeout}.
   */
  @FunctionalInterface
  interface Awaiter {
    void await(int count, Duration timeout);
  }

  /**
   * The endpoints.yaml of a contract endpoint named {@code name}: flite on local.1cpu, 1..2
   * instances, target 3.0, scale-in 1.5; {@code localBlock} is appended under the model (indented
   * by the caller) or empty.
   */
  static String yaml(String name, String localBlock) {
    return """
    models:
      %s:
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
    %s\
    """
        .formatted(name, localBlock);
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
    awaiter.await(count, timeout);
  }

  @Override
  public Transport invokableTransport() {
    return Transport.HTTP_STREAM;
  }
}
