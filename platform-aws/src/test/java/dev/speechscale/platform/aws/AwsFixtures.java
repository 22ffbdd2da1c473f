package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.PlanVerdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Endpoint configs and plans for the AWS tests: one model, kokoro-82m on ml.g5.xlarge. */
final class AwsFixtures {
  private AwsFixtures() {}

  static final String DIGEST = "8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced";
  static final String IMAGE =
      "123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server@sha256:" + DIGEST;
  static final String REVISION = "0123456789abcdef0123456789abcdef01234567";
  static final String MODEL = "kokoro-82m";
  static final String ENDPOINT = "speech-kokoro-82m";

  /** The config YAML for the model, with {@code extra} lines appended to its settings. */
  static String yaml(String imageUri, String extra) {
    return "models:\n"
        + "  kokoro-82m:\n"
        + "    engine: kokoro\n"
        + "    instance_type: ml.g5.xlarge\n"
        + "    min_instances: 1\n"
        + "    max_instances: 4\n"
        + "    ttfab_slo_ms: 3000\n"
        + "    queue_max_depth: 50\n"
        + "    container_env:\n"
        + "      WARMUP_TEXT: Hello there.\n"
        + "    aws:\n"
        + "      image_uri: "
        + imageUri
        + "\n"
        + "      model_repository: hexgrad/Kokoro-82M\n"
        + "      model_revision: "
        + REVISION
        + "\n"
        + "      quota_max_instances: 6\n"
        + extra;
  }

  static EndpointConfig config() {
    return config(IMAGE, "");
  }

  static EndpointConfig config(String imageUri, String extra) {
    return EndpointConfigFile.parse(Path.of("endpoints.yaml"), yaml(imageUri, extra)).model(MODEL);
  }

  /** The endpoint the wire fake runs: flite (real speech-server instances need no weights). */
  static final String WIRE_MODEL = "flite";

  static final String WIRE_ENDPOINT = "speech-flite";

  /**
   * The config of {@link #WIRE_MODEL}: flite on ml.c7i.large, 1..4 instances, queue bound 50, the
   * account's quota 6.
   */
  static EndpointConfig wireConfig() {
    String yaml =
        "models:\n"
            + "  flite:\n"
            + "    engine: flite\n"
            + "    instance_type: ml.c7i.large\n"
            + "    min_instances: 1\n"
            + "    max_instances: 4\n"
            + "    ttfab_slo_ms: 3000\n"
            + "    queue_max_depth: 50\n"
            + "    container_env:\n"
            + "      WARMUP_TEXT: Hello there.\n"
            + "    aws:\n"
            + "      image_uri: "
            + IMAGE
            + "\n"
            + "      model_repository: speechscale/flite-voices\n"
            + "      model_revision: "
            + REVISION
            + "\n"
            + "      quota_max_instances: 6\n";
    return EndpointConfigFile.parse(Path.of("endpoints.yaml"), yaml).model(WIRE_MODEL);
  }

  /** The fingerprint the config deploys. */
  static DeployedConfig deployed() {
    return new DeployedConfig(
        "ml.g5.xlarge", DIGEST, Map.of("ENGINE", "kokoro", "WARMUP_TEXT", "Hello there."));
  }

  /** A plan that matches {@link #config()}: target 37.5, scale-in 25, cooldowns 30/960, 1..4. */
  static PlanArtifact matchingPlan() {
    return plan("warn (2)", 37.5, 25.0, deployed(), 4);
  }

  static PlanArtifact plan(
      String verdict, Double target, Double scaleIn, DeployedConfig fingerprint, int max) {
    return PlanArtifact.of(
        new Stamp(
            "test",
            Instant.parse("2026-08-04T15:00:00Z"),
            new Provenance("test", "test", "test", "test", Map.of())),
        new PlanArtifact.Target(MODEL, ENDPOINT, "ml.g5.xlarge", fingerprint),
        new PlanArtifact.Judgement(PlanVerdict.ofLabel(verdict), List.of()),
        new Plan.QMax(50, true, false),
        new PlanArtifact.Thresholds(
            37.5,
            25.0,
            target,
            scaleIn,
            target == null ? null : new PlanArtifact.Ratio(1.0, 40),
            scaleIn == null ? null : new PlanArtifact.Ratio(1.0, 30)),
        new Plan.Fleet(1, max, 1, max, 3, 9, 50),
        new Plan.Timing(30, 960, 2.934, 3.0, 320.2, 65.4),
        new Plan.Surge(0.974, 0.987, 0.05, 0.2, 1.0, 17.9),
        null,
        new PlanArtifact.Deployment(
            new PlanArtifact.EndpointConfigBlock(
                MODEL, "ml.g5.xlarge", 1, max, target, scaleIn, 3000, 50, 30, 960, 65.4),
            "models: ..."));
  }
}
