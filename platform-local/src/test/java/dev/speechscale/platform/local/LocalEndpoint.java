package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.Provenance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A real local endpoint for a test: writes an endpoint config (and, when asked, a plan whose
 * fingerprint matches the deployment), deploys it with real processes, and destroys it.
 */
final class LocalEndpoint implements AutoCloseable {
  final Path root;
  final EndpointConfig config;
  final LocalDeployer deployer;
  final LocalPlatform platform;
  final LocalDeployer.Deployed deployed;

  private LocalEndpoint(Path root, EndpointConfig config, Path configFile, Path plan) {
    this.root = root;
    this.config = config;
    this.deployer = new LocalDeployer(root, line -> System.err.println("[deploy] " + line));
    this.platform = new LocalPlatform(root);
    this.deployed = deployer.deploy(config, configFile, plan);
  }

  /**
   * Deploys {@code yaml} (one model named {@code model}); with {@code scaled}, also writes and uses
   * a plan whose values are those of the config.
   */
  static LocalEndpoint deploy(Path dir, String model, String yaml, boolean scaled)
      throws IOException {
    Path configFile = dir.resolve("endpoints.yaml");
    Files.writeString(configFile, yaml);
    EndpointConfig config = EndpointConfigFile.read(configFile).model(model);
    Path root = dir.resolve("state");
    Path plan = null;
    if (scaled) {
      LocalDeployer probe = new LocalDeployer(root, line -> {});
      plan = dir.resolve("plan-" + model + ".json");
      ArtifactCodec.write(plan, planFor(config, probe.fingerprint(config)));
    }
    return new LocalEndpoint(root, config, configFile, plan);
  }

  /** A plan artifact agreeing with {@code c} on every value the gate compares. */
  static PlanArtifact planFor(EndpointConfig c, DeployedConfig fingerprint) {
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
                null),
            new PlanArtifact.Chosen(
                c.ttfabSloMs(), 1.25, 10.0, null, null, null, c.minInstances(), 0.1, 60, 1000, 1));
    return new PlanArtifact(
        1,
        "plan",
        "test",
        Instant.now(),
        new Provenance("test", "test", "test", "test plan for " + c.modelName(), Map.of()),
        c.modelName(),
        c.endpointName(),
        c.instanceType(),
        fingerprint,
        fingerprint.slug(),
        "ok",
        8,
        true,
        false,
        c.scalingTargetValue(),
        c.scaleInThreshold(),
        c.scalingTargetValue(),
        c.scaleInThreshold(),
        1.0,
        1.0,
        4,
        2,
        c.minInstances(),
        c.maxInstances(),
        1,
        c.maxInstances(),
        2,
        c.queueMaxDepth(),
        c.scaleOutCooldownS(),
        c.scaleInCooldownS(),
        0.5,
        1.0,
        60,
        0.7,
        0.8,
        0.1,
        0.0,
        null,
        10.0,
        1,
        50.0,
        findings(),
        inputs,
        block,
        "models: (test plan)");
  }

  private static List<PlanArtifact.FindingEntry> findings() {
    return dev.speechscale.capacity.Planner.FINDING_ORDER.stream()
        .map(n -> new PlanArtifact.FindingEntry(n, "ok", "test plan", null))
        .toList();
  }

  String endpoint() {
    return config.endpointName();
  }

  String url() {
    return deployed.routerUrl();
  }

  /** Polls {@code condition} every 100 ms until it holds, or fails after {@code timeout}. */
  static void await(String what, Duration timeout, BooleanSupplier condition) {
    Instant deadline = Instant.now().plus(timeout);
    while (!condition.getAsBoolean()) {
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(
            String.format(Locale.ROOT, "timed out after %s waiting for %s", timeout, what));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what, e);
      }
    }
  }

  @Override
  public void close() {
    deployer.destroy(endpoint());
  }
}
