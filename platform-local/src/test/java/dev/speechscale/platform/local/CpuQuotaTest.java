package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.CpuLimit;
import java.io.IOException;
import java.util.List;
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
}
