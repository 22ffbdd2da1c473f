package dev.speechscale.platform.local;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
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
      ArtifactCodec.write(plan, TestPlans.planFor(config, probe.fingerprint(config)));
    }
    return new LocalEndpoint(root, config, configFile, plan);
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
