package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.speechscale.platform.CpuLimit;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Reading back the CPU limit a process runs under. */
class CpuQuotaTest {

  @Test
  void allowedCpus_rangesAndSingles_countsEveryCpu() {
    assertThat(CpuQuota.allowedCpus(List.of("Name:\tjava", "Cpus_allowed_list:\t0-1,3")))
        .isEqualTo(3);
    assertThat(CpuQuota.allowedCpus(List.of("Cpus_allowed_list:\t1"))).isEqualTo(1);
  }

  @Test
  void allowedCpus_noAffinityLine_isNull() {
    assertThat(CpuQuota.allowedCpus(List.of("Name:\tjava"))).isNull();
  }

  @Test
  void quotaCpus_processInNoCpuGroup_isNull() throws IOException {
    assertThat(CpuQuota.quotaCpus(List.of("9:name=systemd:/", "3:cpuset:/"))).isNull();
  }

  @Test
  void readBack_aProcessThatDoesNotExist_isNotEnforcedAndSaysWhy() {
    CpuLimit l = CpuQuota.readBack(Long.MAX_VALUE, 0.5, "");
    assertThat(l.enforced()).isFalse();
    assertThat(l.enforcedCpus()).isNull();
    assertThat(l.detail()).contains("cannot read /proc/" + Long.MAX_VALUE);
  }

  @Test
  void readBack_thisProcess_reportsWhatItIsHeldToNotTheRequest() {
    CpuLimit l = CpuQuota.readBack(ProcessHandle.current().pid(), 0.001, "no writable cpu cgroup");
    assertThat(l.enforced()).isFalse();
    assertThat(l.enforcedCpus()).isNotNull().isGreaterThan(0.001);
    assertThat(l.detail()).startsWith("no writable cpu cgroup; ");
  }

  @Test
  void groupName_oneEndpointNameInTwoStateDirectories_isTwoGroups() {
    Path a = Path.of("/tmp/run-a/state/speech-quickstart");
    Path b = Path.of("/tmp/run-b/state/speech-quickstart");

    String inA = CpuQuota.groupName(a, "speech-quickstart", "i-local-1");
    String inB = CpuQuota.groupName(b, "speech-quickstart", "i-local-1");

    assertThat(inA).isNotEqualTo(inB).startsWith("speech-quickstart-").endsWith("-i-local-1");
    assertThat(inA).doesNotContain("/");
    assertThat(
            CpuQuota.groupName(a.resolve("../speech-quickstart"), "speech-quickstart", "i-local-1"))
        .as("the same deployment, however its directory is spelled")
        .isEqualTo(inA);
  }

  @Test
  void apply_twoDeploymentsOfOneEndpointName_holdEachInstanceInItsOwnGroup() throws Exception {
    StringBuilder probe = new StringBuilder();
    Process first = new ProcessBuilder("sleep", "30").start();
    Process second = new ProcessBuilder("sleep", "30").start();
    Optional<Path> a = Optional.empty();
    Optional<Path> b = Optional.empty();
    try {
      a =
          CpuQuota.apply(
              first.pid(),
              0.5,
              CpuQuota.groupName(Path.of("/tmp/run-a/speech-q"), "speech-q", "i-local-1"),
              probe);
      assumeTrue(a.isPresent(), "needs a writable cpu cgroup (root): " + probe);
      b =
          CpuQuota.apply(
              second.pid(),
              0.5,
              CpuQuota.groupName(Path.of("/tmp/run-b/speech-q"), "speech-q", "i-local-1"),
              new StringBuilder());

      assertThat(b).isPresent().get().isNotEqualTo(a.get());
      assertThat(CpuQuota.readBack(first.pid(), 0.5, "").enforcedCpus()).isEqualTo(0.5);
      assertThat(CpuQuota.readBack(second.pid(), 0.5, "").enforcedCpus()).isEqualTo(0.5);
      assertThat(Files.readAllLines(a.get().resolve("cgroup.procs")))
          .containsExactly(Long.toString(first.pid()));
    } finally {
      first.destroyForcibly().waitFor();
      second.destroyForcibly().waitFor();
      a.ifPresent(CpuQuota::release);
      b.ifPresent(CpuQuota::release);
    }
  }
}
