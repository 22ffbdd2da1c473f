package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import dev.speechscale.artifacts.Stamp;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.PlanVerdict;
import dev.speechscale.capacity.Verdict;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Plan artifacts for tests that need scaling attached without measuring first: every value the gate
 * compares is the config's, the fingerprint is the deployment's. Shared with system-tests through
 * this module's test-jar.
 */
public final class TestPlans {
  private TestPlans() {}

  /** Writes a plan matching {@code model} of {@code configFile} as deployed under {@code root}. */
  public static void writeMatching(Path configFile, String model, Path root, Path plan) {
    EndpointConfig config = EndpointConfigFile.read(configFile).model(model);
    ArtifactCodec.write(
        plan, planFor(config, new LocalDeployer(root, line -> {}).fingerprint(config)));
  }

  /** A plan artifact agreeing with {@code c} on every value the gate compares. */
  public static PlanArtifact planFor(EndpointConfig c, DeployedConfig fingerprint) {
    PlanArtifact.EndpointConfigBlock block =
        new PlanArtifact.EndpointConfigBlock(
            c.modelName(),
            c.instanceType(),
            c.minInstances(),
            c.maxInstances(),
            c.scalingTargetValue(),
            c.scaleInThreshold(),
            c.ttfabSloMs(),
            c.queueMaxDepth(),
            c.scaleOutCooldownS(),
            c.scaleInCooldownS(),
            50.0);
    PlanArtifact.Inputs inputs =
        new PlanArtifact.Inputs(
            new PlanArtifact.Measured(
                "http-stream",
                c.ttfabSloMs(),
                List.of(8),
                0.05,
                0.06,
                "test",
                null,
                List.of(),
                30,
                30,
                true,
                new PlanArtifact.SourceFile(
                    "test", "qmax", Instant.now(), fingerprint.slug(), "test"),
                null,
                null),
            new PlanArtifact.Chosen(
                c.ttfabSloMs(), 1.25, 10.0, null, null, null, c.minInstances(), 0.1, 60, 1000, 1));
    return PlanArtifact.of(
        new Stamp(
            "test",
            Instant.now(),
            new Provenance("test", "test", "test", "test plan for " + c.modelName(), Map.of())),
        new PlanArtifact.Target(c.modelName(), c.endpointName(), c.instanceType(), fingerprint),
        new PlanArtifact.Judgement(PlanVerdict.ok(), findings()),
        new Plan.QMax(8, true, false),
        new PlanArtifact.Thresholds(
            c.scalingTargetValue(),
            c.scaleInThreshold(),
            c.scalingTargetValue(),
            c.scaleInThreshold(),
            new PlanArtifact.Ratio(1.0, 4),
            new PlanArtifact.Ratio(1.0, 2)),
        new Plan.Fleet(
            c.minInstances(), c.maxInstances(), 1, c.maxInstances(), 2, 1, c.queueMaxDepth()),
        new Plan.Timing(c.scaleOutCooldownS(), c.scaleInCooldownS(), 0.5, 1.0, 60, 50.0),
        new Plan.Surge(0.7, 0.8, 0.1, 0.0, null, 10.0),
        inputs,
        new PlanArtifact.Deployment(block, "models: (test plan)"));
  }

  private static List<PlanArtifact.FindingEntry> findings() {
    return dev.speechscale.capacity.Planner.FINDING_ORDER.stream()
        .map(n -> new PlanArtifact.FindingEntry(n, Verdict.OK, "test plan", null))
        .toList();
  }
}
