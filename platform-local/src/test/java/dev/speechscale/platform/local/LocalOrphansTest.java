package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.OrphanedScaling;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalOrphansTest {
  @TempDir Path root;

  private static EndpointConfig config(String model) {
    return EndpointConfigFile.parse(
            Path.of("endpoints.yaml"),
            "models:\n  "
                + model
                + ":\n    engine: flite\n    instance_type: local.1cpu\n    min_instances: 1\n"
                + "    max_instances: 2\n    ttfab_slo_ms: 1000\n    queue_max_depth: 0\n")
        .model(model);
  }

  private void record(String model, boolean attached, long pid, Instant startedAt) {
    String endpoint = "speech-" + model;
    LocalState.write(
        LocalState.endpointFile(LocalState.endpointDir(root, endpoint)),
        new LocalState.EndpointRecord(
            endpoint,
            config(model),
            "endpoints.yaml",
            new LocalState.ScalingRecord(
                attached, "test", attached ? "plan-" + model + ".json" : null),
            "sha256:00",
            List.of("true"),
            pid,
            startedAt,
            0,
            0,
            Instant.parse("2026-12-01T00:00:00Z")));
  }

  @Test
  void scan_deadSupervisorWithScaling_reportsItsTargetPoliciesAndAlarms() {
    record("gone", true, 0, null);

    List<OrphanedScaling> found = LocalOrphans.scan(root);

    assertThat(found)
        .extracting(OrphanedScaling::kind, OrphanedScaling::name)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                OrphanedScaling.Kind.SCALABLE_TARGET, "endpoint/speech-gone/variant/AllTraffic"),
            org.assertj.core.groups.Tuple.tuple(
                OrphanedScaling.Kind.SCALING_POLICY, "speech-gone-target-tracking"),
            org.assertj.core.groups.Tuple.tuple(
                OrphanedScaling.Kind.SCALING_POLICY, "speech-gone-step-scale-in"),
            org.assertj.core.groups.Tuple.tuple(
                OrphanedScaling.Kind.ALARM, "TargetTracking-speech-gone-AlarmHigh"),
            org.assertj.core.groups.Tuple.tuple(
                OrphanedScaling.Kind.ALARM, "speech-gone-scale-in"));
    assertThat(found).allSatisfy(o -> assertThat(o.endpoint()).isEqualTo("speech-gone"));
    assertThat(found.getFirst().detail()).contains("speech-infra destroy --model gone");
  }

  @Test
  void scan_liveSupervisor_isNotAnOrphan() {
    ProcessHandle self = ProcessHandle.current();
    record("live", true, self.pid(), self.info().startInstant().orElse(null));

    assertThat(LocalOrphans.scan(root)).isEmpty();
  }

  @Test
  void scan_deadSupervisorWithoutScaling_leftNothingToScale() {
    record("plain", false, 0, null);

    assertThat(LocalOrphans.scan(root)).isEmpty();
  }

  @Test
  void scan_noStateDirectory_findsNothing() {
    assertThat(LocalOrphans.scan(root.resolve("absent"))).isEmpty();
  }
}
