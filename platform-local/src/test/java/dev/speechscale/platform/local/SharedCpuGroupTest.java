package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two state directories deploying the same endpoint name at once (two quickstarts on one machine):
 * each instance is held to its own half CPU, not one half CPU shared by both. Before the group was
 * named by the deployment, both {@code i-local-1} processes sat in {@code
 * speechscale/speech-twin-i-local-1}, so the one at the lower priority was starved to a few percent
 * of its share — the 0.4 req/s rungs and the 37 s p95 of validate's live SLO check in
 * measurements/aws-physics.md, which ran beside other quickstarts.
 */
class SharedCpuGroupTest {
  static final String YAML =
      """
      models:
        twin:
          engine: flite
          instance_type: local.500mcpu
          min_instances: 1
          max_instances: 1
          ttfab_slo_ms: 1000
      """;

  @TempDir Path a;
  @TempDir Path b;

  /** The cpu cgroup of the endpoint's in-service instance, from {@code /proc/<pid>/cgroup}. */
  private static String cpuGroupOf(LocalEndpoint e) throws IOException {
    Views.Status s =
        LocalState.read(
                LocalState.statusFile(LocalState.endpointDir(e.root, e.endpoint())),
                Views.Status.class)
            .orElseThrow();
    long pid = s.instances().getFirst().pid();
    List<String> lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"));
    return lines.stream()
        .filter(l -> l.matches("\\d+:([^:]*,)?cpu(,[^:]*)?:.*") || l.startsWith("0::"))
        .map(l -> l.substring(l.indexOf(':', l.indexOf(':') + 1) + 1))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void deploy_oneEndpointNameInTwoStateDirectories_eachInstanceHasItsOwnCpuShare()
      throws Exception {
    try (LocalEndpoint first = LocalEndpoint.deploy(a, "twin", YAML, false);
        LocalEndpoint second = LocalEndpoint.deploy(b, "twin", YAML, false)) {
      assumeTrue(
          first.platform.cpuLimit(first.endpoint()).orElseThrow().enforced(),
          "needs a writable cpu cgroup (root) to enforce local.500mcpu");

      String groupA = cpuGroupOf(first);
      String groupB = cpuGroupOf(second);

      assertThat(groupA).contains("speechscale/speech-twin-");
      assertThat(groupB).isNotEqualTo(groupA);
      assertThat(second.platform.cpuLimit(second.endpoint()).orElseThrow().enforcedCpus())
          .isEqualTo(0.5);
    }
  }
}
