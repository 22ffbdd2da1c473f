package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.PlatformSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code speech-infra deploy|status|destroy} against a control API that throttles (AWS physics, one
 * control call a second) while another client spends its budget: every command still completes,
 * because its calls take the same retrying path as the chain's instead of failing on the first
 * {@code ThrottlingException}.
 */
class ThrottledInfraTest {
  static final String MODEL = "throttled";
  static final String ENDPOINT = "speech-" + MODEL;

  @TempDir Path dir;

  /** Spends the endpoint's whole control budget: describes until one is throttled. */
  private static int drain(LocalPlatform raw) {
    for (int i = 1; i <= 50; i++) {
      try {
        raw.describe(ENDPOINT);
      } catch (PlatformException e) {
        if (e.reason() instanceof PlatformException.Reason.Throttled) {
          return i;
        }
        return 0; // not deployed yet, or its supervisor is starting
      }
    }
    throw new AssertionError("50 describes at full speed were never throttled at 1 call/s");
  }

  @Test
  void infra_controlApiThrottledByAnotherClient_deploysReportsStatusAndDestroys() throws Exception {
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        """
        models:
          throttled:
            engine: flite
            instance_type: local.1cpu
            min_instances: 1
            max_instances: 1
            ttfab_slo_ms: 1000
            local:
              aws_physics: {metric_delay_s: 0, control_calls_per_s: 1, instance_start_s: 0}
        """);
    Path root = dir.resolve("state");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    LocalInfra infra =
        new LocalInfra(
            new PlatformSettings(root, null, null, null, null, null),
            MODEL,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            System.err);
    LocalPlatform raw = new LocalPlatform(root);
    AtomicInteger throttledBursts = new AtomicInteger();
    CountDownLatch deployed = new CountDownLatch(1);
    Thread rival =
        Thread.ofPlatform()
            .daemon()
            .start(() -> {
              try {
                // every 2 s, the budget is spent just before deploy's next poll may want it
                while (!deployed.await(2, TimeUnit.SECONDS)) {
                  if (drain(raw) > 0) {
                    throttledBursts.incrementAndGet();
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    try {
      deployReportDestroy(infra, config, raw, root, out, deployed, rival, throttledBursts);
    } finally {
      // a failed assertion leaves nothing running (destroy is idempotent)
      new LocalDeployer(root, line -> {}).destroy(ENDPOINT);
    }
  }

  private static void deployReportDestroy(
      LocalInfra infra,
      Path config,
      LocalPlatform raw,
      Path root,
      ByteArrayOutputStream out,
      CountDownLatch deployed,
      Thread rival,
      AtomicInteger throttledBursts)
      throws InterruptedException {
    try {
      assertThat(infra.deploy(config, null)).isZero();
    } finally {
      deployed.countDown();
      rival.join();
    }
    assertThat(throttledBursts.get()).as("the rival was throttled during deploy").isPositive();

    assertThat(drain(raw)).as("budget spent before status").isPositive();
    assertThat(infra.status()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains(ENDPOINT + "  IN_SERVICE");
    // the control API counts what it answered, throttled calls apart (GET /calls is never limited)
    java.util.Map<String, Long> calls = raw.controlCalls(ENDPOINT);
    assertThat(calls.get("GET /status throttled")).isPositive();
    assertThat(calls.get("GET /status")).isGreaterThan(calls.get("GET /status throttled"));
    assertThat(calls).doesNotContainKey("GET /calls");

    assertThat(drain(raw)).as("budget spent before destroy").isPositive();
    assertThat(infra.destroy(config, false)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("destroyed " + ENDPOINT);
    assertThat(LocalState.endpointDir(root, ENDPOINT)).doesNotExist();
  }
}
