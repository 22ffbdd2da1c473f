package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.PlanVerdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScalingGateTest {
  static final DeployedConfig DEPLOYED = new DeployedConfig("local.1cpu", "abcdef0123", Map.of());

  static EndpointConfig config(String extra) {
    return EndpointConfigFile.parse(
            Path.of("c.yaml"),
            "models:\n  m:\n    min_instances: 1\n    max_instances: 2\n    queue_max_depth: 8\n"
                + "    ttfab_slo_ms: 1000\n"
                + extra)
        .model("m");
  }

  static PlanArtifact plan(String verdict, Double target, Double scaleIn, DeployedConfig dc) {
    return PlanArtifact.of(
        new Stamp("t", Instant.EPOCH, new Provenance("t", "t", "t", "t", Map.of())),
        new PlanArtifact.Target("m", "speech-m", "local.1cpu", dc),
        new PlanArtifact.Judgement(PlanVerdict.ofLabel(verdict), List.of()),
        new Plan.QMax(8, true, false),
        new PlanArtifact.Thresholds(
            6,
            4,
            target,
            scaleIn,
            target == null ? null : new PlanArtifact.Ratio(1.0, 5),
            scaleIn == null ? null : new PlanArtifact.Ratio(1.0, 4)),
        new Plan.Fleet(1, 2, 1, 2, 3, 1, 8),
        new Plan.Timing(10, 300, 0.9, 1.0, 40, 50.0),
        new Plan.Surge(0.8, 0.9, 0.1, 0.5, 2.0, 10.0),
        null,
        new PlanArtifact.Deployment(
            new PlanArtifact.EndpointConfigBlock(
                "m", "local.1cpu", 1, 2, target, scaleIn, 1000, 8, 10, 300, 50.0),
            "models: ..."));
  }

  @Test
  void decide_matchingPlan_attachesWithThePlansValues() {
    ScalingGate.Decision d =
        ScalingGate.decide(config(""), DEPLOYED, plan("warn (1)", 6.0, 4.0, DEPLOYED), "p.json");

    assertThat(d).isInstanceOf(ScalingGate.Decision.Attach.class);
    EndpointConfig e = ((ScalingGate.Decision.Attach) d).effective();
    assertThat(e.scalingTargetValue()).isEqualTo(6.0);
    assertThat(e.scaleInThreshold()).isEqualTo(4.0);
    assertThat(e.scaleOutCooldownS()).isEqualTo(10);
    assertThat(d.reason()).contains("target 6.000").contains("1..2 instances");
  }

  @Test
  void decide_noPlan_withholdsAndSaysWhatToRun() {
    assertThat(ScalingGate.decide(config(""), DEPLOYED, null, "plan-m.json").reason())
        .contains("no plan artifact (looked for plan-m.json)")
        .contains("tts-bench plan");
  }

  @Test
  void decide_eachDisqualifyingPlan_withholdsWithItsReason() {
    DeployedConfig other = new DeployedConfig("local.1cpu", "99999999ff", Map.of());

    assertThat(ScalingGate.decide(config(""), DEPLOYED, plan("ok", 6.0, 4.0, other), "p").reason())
        .contains("local1cpu-99999999")
        .contains("local1cpu-abcdef01");
    assertThat(ScalingGate.decide(config(""), DEPLOYED, plan("ok", 6.0, 4.0, null), "p").reason())
        .contains("no-fingerprint");
    assertThat(
            ScalingGate.decide(config(""), DEPLOYED, plan("INFEASIBLE", 6.0, 4.0, DEPLOYED), "p")
                .reason())
        .contains("INFEASIBLE");
    assertThat(
            ScalingGate.decide(config(""), DEPLOYED, plan("ok", null, null, DEPLOYED), "p")
                .reason())
        .contains("no measured units conversion");
  }

  @Test
  void decide_sameSlugDifferentEnvironment_namesTheVariableAndBothValues() {
    DeployedConfig measured = new DeployedConfig("local.1cpu", "abcdef0123", Map.of());
    DeployedConfig deployed =
        new DeployedConfig("local.1cpu", "abcdef0123", Map.of("ENGINE", "kokoro"));

    String reason =
        ScalingGate.decide(config(""), deployed, plan("ok", 6.0, 4.0, measured), "p").reason();

    assertThat(reason)
        .contains("container_env.ENGINE: unset in the measurement, 'kokoro' in the deployment")
        .contains("Re-measure");
  }

  @Test
  void differences_eachField_namedWithBothValues() {
    DeployedConfig a = new DeployedConfig("ml.g5.xlarge", "sha256:aa", Map.of("A", "1", "B", "2"));
    DeployedConfig b = new DeployedConfig("ml.g5.2xlarge", "sha256:bb", Map.of("A", "1", "B", "3"));

    assertThat(DeployedConfig.differences(a, b))
        .containsExactly(
            "instance_type: 'ml.g5.xlarge' in the measurement, 'ml.g5.2xlarge' in the deployment",
            "image_digest: 'sha256:aa' in the measurement, 'sha256:bb' in the deployment",
            "container_env.B: '2' in the measurement, '3' in the deployment");
    assertThat(DeployedConfig.differences(a, a)).isEmpty();
  }

  @Test
  void decide_configDisagreeingWithThePlan_namesTheField() {
    ScalingGate.Decision d =
        ScalingGate.decide(
            config("    scaling_target_value: 7\n"), DEPLOYED, plan("ok", 6.0, 4.0, DEPLOYED), "p");

    assertThat(d).isInstanceOf(ScalingGate.Decision.Withhold.class);
    assertThat(d.reason())
        .contains("models.m.scaling_target_value (7.0) differs from the plan's" + " (6.0)");
  }

  @Test
  void decide_minEqualsMax_withholds() {
    EndpointConfig fixed =
        EndpointConfigFile.parse(
                Path.of("c.yaml"), "models:\n  m: {min_instances: 2," + " max_instances: 2}\n")
            .model("m");

    assertThat(ScalingGate.decide(fixed, DEPLOYED, plan("ok", 6.0, 4.0, DEPLOYED), "p").reason())
        .contains("nothing to scale");
  }
}
