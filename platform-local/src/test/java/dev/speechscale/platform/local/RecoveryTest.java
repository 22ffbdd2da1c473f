package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.PlatformException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery after crashes and operator mistakes (issue 11): destroy cleans up whatever the state
 * files say (a damaged endpoint.json, an instance the last status.json never recorded), a deploy
 * stops what a dead supervisor left behind, and two deploys of one endpoint never race.
 */
class RecoveryTest {
  private static final String YAML =
      """
      models:
        rescue: {engine: flite, instance_type: local.1cpu, min_instances: 1, max_instances: 1}
      """;

  @TempDir Path dir;

  /** A stand-in for an instance a dead supervisor left behind: it carries the endpoint's mark. */
  private static Process orphan(Path endpointDir) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("/bin/sleep", "300");
    pb.environment().put(EndpointProcesses.ENV, EndpointProcesses.key(endpointDir));
    return pb.start();
  }

  private EndpointConfig config() throws Exception {
    Path file = dir.resolve("endpoints.yaml");
    Files.writeString(file, YAML);
    return EndpointConfigFile.read(file).model("rescue");
  }

  @Test
  void destroy_endpointJsonDamaged_stopsTheEndpointsProcessesAndRemovesItsState() throws Exception {
    Path root = dir.resolve("state");
    Path endpointDir = LocalState.endpointDir(root, "speech-rescue");
    Files.createDirectories(endpointDir);
    Files.writeString(LocalState.endpointFile(endpointDir), "{\"endpoint\": \"speech-res");
    Process left = orphan(endpointDir);
    List<String> said = new ArrayList<>();
    try {
      LocalDeployer.Destroyed d = new LocalDeployer(root, said::add).destroy("speech-rescue");
      assertThat(d.existed()).isTrue();
      assertThat(d.stoppedPids()).containsExactly(left.pid());
      assertThat(left.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(endpointDir).doesNotExist();
      assertThat(String.join("\n", said))
          .contains("endpoint.json is unreadable")
          .contains("found by their command line and environment");
    } finally {
      left.destroyForcibly();
    }
  }

  @Test
  void destroy_instanceStatusJsonNeverRecorded_isFoundAndStopped() throws Exception {
    Path root = dir.resolve("state");
    Path endpointDir = LocalState.endpointDir(root, "speech-rescue");
    Files.createDirectories(endpointDir);
    LocalState.write(
        LocalState.endpointFile(endpointDir),
        new LocalState.EndpointRecord(
            "speech-rescue",
            config(),
            "endpoints.yaml",
            new LocalState.ScalingRecord(false, "no plan", null),
            "sha256:0",
            List.of("java"),
            Integer.MAX_VALUE, // the supervisor is gone
            Instant.now(),
            0,
            0,
            Instant.now()));
    Process left = orphan(endpointDir); // started in the second before the supervisor died
    try {
      LocalDeployer.Destroyed d = new LocalDeployer(root, line -> {}).destroy("speech-rescue");
      assertThat(d.stoppedPids()).containsExactly(left.pid());
      assertThat(left.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(endpointDir).doesNotExist();
    } finally {
      left.destroyForcibly();
    }
  }

  @Test
  void deploy_whileAnotherDeployOfTheEndpointRuns_isRefusedAndChangesNothing() throws Exception {
    Path root = dir.resolve("state");
    EndpointConfig config = config();
    LocalDeployer deployer = new LocalDeployer(root, line -> {});
    try (DeployLock first = DeployLock.acquire(root, config.endpointName())) {
      assertThatThrownBy(() -> deployer.deploy(config, dir.resolve("endpoints.yaml"), null))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("another deploy of speech-rescue is in progress")
          .hasMessageContaining("nothing was changed");
      assertThat(LocalState.endpointDir(root, config.endpointName())).doesNotExist();
    }
    try (DeployLock again = DeployLock.acquire(root, config.endpointName())) {
      assertThat(again).as("the lock is free once its holder closed it").isNotNull();
    }
  }

  @Test
  void deploy_orphanOfADeadSupervisorRunning_stopsItThenComesIntoService() throws Exception {
    Path endpointDir = LocalState.endpointDir(dir.resolve("state"), "speech-rescue");
    Process left = orphan(endpointDir);
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "rescue", YAML, false)) {
      assertThat(left.waitFor(30, java.util.concurrent.TimeUnit.SECONDS))
          .as("the orphan was stopped by the deploy")
          .isTrue();
      assertThat(EndpointProcesses.find(endpointDir))
          .as("the deployed supervisor and its instance carry the mark")
          .hasSize(2);
      LocalDeployer.Destroyed d = e.deployer.destroy(e.endpoint());
      assertThat(d.stoppedPids()).hasSizeGreaterThanOrEqualTo(1);
      LocalEndpoint.await(
          "nothing of the endpoint left",
          Duration.ofSeconds(60),
          () -> EndpointProcesses.find(endpointDir).isEmpty());
    } finally {
      left.destroyForcibly();
    }
  }
}
