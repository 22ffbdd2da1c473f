package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class EndpointConfigFileTest {
  private static final Path FILE = Path.of("endpoints.yaml");

  @Test
  void parse_fullModel_readsEveryField() {
    EndpointConfigFile f =
        EndpointConfigFile.parse(
            FILE,
            """
            models:
              flite-slt:
                engine: flite
                engine_settings: {voice: slt, segmentation: sentence}
                instance_type: local.1cpu
                min_instances: 1
                max_instances: 3
                scaling_target_value: 4.5
                scale_in_threshold: 3
                scale_out_cooldown_s: 10
                scale_in_cooldown_s: 300
                ttfab_slo_ms: 800
                queue_max_depth: 6
                container_env: {LOG_LEVEL: info}
                local: {time_scale: 0.1}
            """);

    EndpointConfig c = f.model("flite-slt");
    assertThat(c.endpointName()).isEqualTo("speech-flite-slt");
    assertThat(c.engineSettings()).containsEntry("voice", "slt");
    assertThat(c.localCpus()).isEqualTo(1.0);
    assertThat(c.maxInstances()).isEqualTo(3);
    assertThat(c.scalingTargetValue()).isEqualTo(4.5);
    assertThat(c.local().timeScale()).isEqualTo(0.1);
    assertThat(c.aws()).isNull();
  }

  @Test
  void parse_awsPhysics_startJitterAndCapacityLimit_defaultToNone() {
    EndpointConfig c =
        EndpointConfigFile.parse(
                FILE,
                """
                models:
                  p:
                    local:
                      aws_physics: {instance_start_s: 60, instance_start_jitter_s: 30, capacity_limit: 4}
                  q:
                    local:
                      aws_physics: {instance_start_s: 60}
                """)
            .model("p");

    assertThat(c.local().awsPhysics()).isEqualTo(new EndpointConfig.AwsPhysics(0, 0, 60, 30, 4));
    assertThat(EndpointConfig.AwsPhysics.OFF.instanceStartJitterS()).isZero();
    assertThat(EndpointConfig.AwsPhysics.OFF.capacityLimit()).isZero();
  }

  @Test
  void parse_awsPhysics_concurrencyWhenIdle_zeroByDefaultMissingWhenAsked() {
    EndpointConfig missing =
        EndpointConfigFile.parse(
                FILE,
                """
                models:
                  p:
                    local:
                      aws_physics: {concurrency_when_idle: missing}
                """)
            .model("p");

    assertThat(missing.local().awsPhysics().concurrencyWhenIdle())
        .isEqualTo(EndpointConfig.IdleConcurrency.MISSING);
    assertThat(missing.local().awsPhysics().on()).isTrue();
    assertThat(EndpointConfig.AwsPhysics.OFF.concurrencyWhenIdle())
        .isEqualTo(EndpointConfig.IdleConcurrency.ZERO);
    assertThatThrownBy(() ->
            EndpointConfigFile.parse(
                FILE, "models:\n  p:\n    local: {aws_physics: {concurrency_when_idle: none}}\n"))
        .hasMessageContaining("concurrency_when_idle")
        .hasMessageContaining("'none' is not zero or missing");
  }

  @Test
  void parse_awsPhysics_readsAllThreeSettings() {
    EndpointConfig c =
        EndpointConfigFile.parse(
                FILE,
                """
                models:
                  p:
                    local:
                      aws_physics: {metric_delay_s: 60, control_calls_per_s: 5, instance_start_s: 60}
                """)
            .model("p");

    assertThat(c.local().awsPhysics()).isEqualTo(new EndpointConfig.AwsPhysics(60, 5.0, 60));
    assertThat(c.local().awsPhysics().on()).isTrue();
    assertThat(c.local().timeScale()).isEqualTo(1.0);
  }

  @Test
  void parse_noAwsPhysics_isOff() {
    EndpointConfig c =
        EndpointConfigFile.parse(FILE, "models:\n  p:\n    local: {time_scale: 0.5}\n").model("p");

    assertThat(c.local().awsPhysics()).isEqualTo(EndpointConfig.AwsPhysics.OFF);
    assertThat(c.local().awsPhysics().on()).isFalse();
    assertThat(EndpointConfig.Local.DEFAULTS.awsPhysics().on()).isFalse();
  }

  @Test
  void parse_badAwsPhysics_namesEachFieldValueAndRule() {
    assertThatThrownBy(() ->
            EndpointConfigFile.parse(
                FILE,
                """
                models:
                  p:
                    local:
                      aws_physics:
                        metric_delay_s: -1
                        control_calls_per_s: -2
                        instance_start: 60
                """))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("models.p.local.aws_physics.metric_delay_s (-1) must be between 0")
        .hasMessageContaining("models.p.local.aws_physics.control_calls_per_s (-2.0) must be")
        .hasMessageContaining("models.p.local.aws_physics.instance_start is not a known setting")
        .hasMessageContaining("instance_start_s");
  }

  @Test
  void engineEnvironment_engineAndSettings_areUpperCaseVariables() {
    EndpointConfig c =
        EndpointConfigFile.parse(
                FILE,
                """
                models:
                  k:
                    engine: kokoro
                    engine_settings: {kokoro_model: /opt/ml/model/m.onnx, segmentation: sentence}
                    container_env: {LOG_LEVEL: info}
                """)
            .model("k");

    assertThat(c.engineEnvironment())
        .containsExactly(
            java.util.Map.entry("ENGINE", "kokoro"),
            java.util.Map.entry("KOKORO_MODEL", "/opt/ml/model/m.onnx"),
            java.util.Map.entry("SEGMENTATION", "sentence"));
  }

  @Test
  void parse_containerEnvNamingTheEngineOrASetting_isRefusedAsContradiction() {
    assertThatThrownBy(() ->
            EndpointConfigFile.parse(
                FILE,
                """
                models:
                  m:
                    engine: flite
                    engine_settings: {segmentation: sentence}
                    container_env: {ENGINE: kokoro, SEGMENTATION: paragraph}
                """))
        .hasMessageContaining("models.m.container_env.ENGINE would contradict engine")
        .hasMessageContaining(
            "models.m.container_env.SEGMENTATION would contradict engine_settings");
  }

  @Test
  void parse_minimalModel_takesDefaults() {
    EndpointConfig c = EndpointConfigFile.parse(FILE, "models:\n  m: {}\n").model("m");

    assertThat(c.engine()).isEqualTo("flite");
    assertThat(c.instanceType()).isEqualTo("local.1cpu");
    assertThat(c.minInstances()).isEqualTo(1);
    assertThat(c.queueMaxDepth()).isZero();
    assertThat(c.scalingTargetValue()).isNull();
  }

  @Test
  void parse_badValues_reportsEveryProblemWithFieldValueAndFix() {
    assertThatThrownBy(() ->
            EndpointConfigFile.parse(
                FILE,
                """
                models:
                  m:
                    engine: festival
                    instance_type: big
                    min_instances: 3
                    max_instances: 2
                    ttfab_slo_ms: fast
                    container_env: {MAX_QUEUE_DEPTH: "5"}
                    colour: blue
                """))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("endpoints.yaml has 6 problems")
        .hasMessageContaining("models.m.engine ('festival') must be one of flite, espeak, kokoro")
        .hasMessageContaining("models.m.instance_type ('big') must be local.<n>cpu")
        .hasMessageContaining("models.m.max_instances (2) is below min_instances (3)")
        .hasMessageContaining("models.m.ttfab_slo_ms (\"fast\") must be a whole number")
        .hasMessageContaining("models.m.container_env.MAX_QUEUE_DEPTH is set by the platform")
        .hasMessageContaining("models.m.colour is not a known setting");
  }

  @Test
  void parse_sageMakerType_needsTheAwsSectionAndAQuotaThatFits() {
    assertThatThrownBy(
            () -> EndpointConfigFile.parse(FILE, "models:\n  m: {instance_type: ml.g5.xlarge}\n"))
        .hasMessageContaining("models.m.aws is required for instance type ml.g5.xlarge");
    assertThatThrownBy(() ->
            EndpointConfigFile.parse(
                FILE,
                """
                models:
                  m:
                    instance_type: ml.g5.xlarge
                    max_instances: 9
                    aws: {quota_max_instances: 4, model_revision: main}
                """))
        .hasMessageContaining("max_instances (9) exceeds aws.quota_max_instances (4)")
        .hasMessageContaining("model_revision ('main') must be a 40-hex commit hash");
  }

  @Test
  void parse_notYamlOrNoModels_isRefused() {
    assertThatThrownBy(() -> EndpointConfigFile.parse(FILE, "models: [unclosed"))
        .hasMessageContaining("is not valid YAML");
    assertThatThrownBy(() -> EndpointConfigFile.parse(FILE, "other: 1\n"))
        .hasMessageContaining("needs a 'models:' map");
  }

  @Test
  void model_unknownName_listsTheKnownOnes() {
    EndpointConfigFile f = EndpointConfigFile.parse(FILE, "models:\n  a: {}\n");

    assertThatThrownBy(() -> f.model("b")).hasMessageContaining("has no model 'b'; it defines a");
  }
}
