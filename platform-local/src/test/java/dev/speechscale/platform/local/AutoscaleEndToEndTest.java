package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.StageMarker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole local platform at once: a real flite endpoint behind a plan, load past the target
 * through the real router, a real instance process started by the autoscaler (its stage markers
 * read from its log), then removed after the load stops. Time is compressed (time_scale 0.1: 1 s
 * tracking periods, 6 s scale-in periods) and the cooldowns are short, as set in the config.
 */
class AutoscaleEndToEndTest {
  @TempDir Path dir;

  @Test
  void loadPastTheTarget_addsARealInstance_andRemovesItWhenLoadStops() throws Exception {
    try (LocalEndpoint e =
        LocalEndpoint.deploy(
            dir,
            "scale",
            """
            models:
              scale:
                engine: flite
                instance_type: local.1cpu
                min_instances: 1
                max_instances: 2
                scaling_target_value: 2.0
                scale_in_threshold: 1.0
                scale_out_cooldown_s: 5
                scale_in_cooldown_s: 5
                ttfab_slo_ms: 2000
                queue_max_depth: 0
                local: {time_scale: 0.1}
            """,
            true)) {
      assertThat(e.deployed.scalingAttached()).as(e.deployed.scalingReason()).isTrue();
      Instant before = Instant.now();

      try (Load load = new Load(e.url(), 6)) {
        LocalEndpoint.await(
            "a second instance in service",
            Duration.ofSeconds(90),
            () -> e.platform.describe(e.endpoint()).currentInstances() == 2);
        LocalEndpoint.await(
            "requests on both instances",
            Duration.ofSeconds(30),
            () -> load.results.stream().map(Load.Result::instance).distinct().count() >= 2);
      }

      List<InstanceLog> started = e.platform.instanceLogs(e.endpoint(), before);
      assertThat(started).hasSize(1);
      assertThat(StageMarker.in(started.getFirst()))
          .extracting(StageMarker::stage)
          .containsExactlyElementsOf(StageMarker.STAGES);
      LocalEndpoint.await(
          "scale-in back to one instance",
          Duration.ofSeconds(120),
          () ->
              e.platform.describe(e.endpoint()).currentInstances() == 1
                  && e.platform.describe(e.endpoint()).desiredInstances() == 1);
      Views.Scaling scaling =
          new ControlClient(e.root).get(e.endpoint(), "/status", Views.Status.class).scaling();
      assertThat(scaling.activities())
          .extracting(Views.Activity::cause)
          .anyMatch(c -> c.startsWith("target tracking"))
          .anyMatch(c -> c.startsWith("step scale-in"));
      LocalEndpoint.await(
          "the removed instance's process to exit",
          Duration.ofSeconds(60),
          () ->
              new ControlClient(e.root)
                  .get(e.endpoint(), "/status", Views.Status.class).instances().stream()
                      .filter(i -> i.phase().equals("stopped"))
                      .anyMatch(
                          i -> ProcessHandle.of(i.pid()).map(h -> !h.isAlive()).orElse(true)));
    }
  }
}
