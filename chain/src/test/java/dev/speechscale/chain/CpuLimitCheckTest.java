package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.EnforcedCpu;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.platform.CpuLimit;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** qmax stops on a CPU limit that is not in force; ttotal refuses a ladder of another limit. */
class CpuLimitCheckTest {
  private static final CpuLimit HALF_ENFORCED =
      new CpuLimit(0.5, 0.5, "cfs-quota+affinity", "cfs quota 0.5 CPU; affinity 1 of 2 CPUs");
  private static final CpuLimit HALF_UNENFORCED =
      new CpuLimit(
          0.5,
          1.0,
          "affinity",
          "no writable cpu cgroup; no cpu quota on its cgroup; affinity 1 of 2 CPUs");

  private static FakePlatform platform(CpuLimit limit) {
    FakePlatform p = DriftTest.unplanned();
    p.cpuLimit = Optional.ofNullable(limit);
    return p;
  }

  @Test
  void requireEnforced_limitNotInForce_stopsNamingBothFiguresAndTheFlag() {
    FakePlatform p = platform(HALF_UNENFORCED);
    assertThatThrownBy(
            () -> CpuLimitCheck.requireEnforced(p, p.endpoint, "quickstart", false, line -> {}))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining(
            "0.500 CPU requested, NOT enforced (held to 1.000 CPU by affinity: no writable")
        .hasMessageContaining("--allow-unenforced-cpu")
        .hasMessageContaining("speech-infra deploy --model quickstart");
  }

  @Test
  void requireEnforced_limitNotInForceWithTheFlag_recordsItAsNotEnforcedAndWarns() {
    FakePlatform p = platform(HALF_UNENFORCED);
    List<String> notes = new ArrayList<>();
    EnforcedCpu cpu = CpuLimitCheck.requireEnforced(p, p.endpoint, "quickstart", true, notes::add);
    assertThat(cpu.enforced()).isFalse();
    assertThat(cpu.requestedCpus()).isEqualTo(0.5);
    assertThat(cpu.enforcedCpus()).isEqualTo(1.0);
    assertThat(notes).singleElement().asString().startsWith("warning: ");
  }

  @Test
  void requireEnforced_limitInForce_recordsTheReadBackLimit() {
    FakePlatform p = platform(HALF_ENFORCED);
    EnforcedCpu cpu = CpuLimitCheck.requireEnforced(p, p.endpoint, "quickstart", false, l -> {});
    assertThat(cpu).isEqualTo(EnforcedCpu.of(HALF_ENFORCED));
    assertThat(cpu.enforced()).isTrue();
  }

  @Test
  void requireEnforced_platformOfWholeInstances_recordsNothing() {
    FakePlatform p = platform(null);
    assertThat(CpuLimitCheck.requireEnforced(p, p.endpoint, "quickstart", false, l -> {})).isNull();
  }

  @Test
  void requireSameAsLadder_ladderOfAnotherLimit_refusesNamingBoth() {
    QmaxArtifact ladder = ladderUnder(EnforcedCpu.of(HALF_UNENFORCED));
    FakePlatform p = platform(HALF_ENFORCED);
    assertThatThrownBy(() ->
            CpuLimitCheck.requireSameAsLadder(
                p, p.endpoint, ladder, "qmax.json", false, line -> {}))
        .isInstanceOf(ChainException.class)
        .hasMessageContaining("qmax qmax.json was measured under 0.500 CPU requested, NOT enforced")
        .hasMessageContaining("but endpoint " + p.endpoint + " under 0.500 CPU enforced")
        .hasMessageContaining("--allow-config-mismatch");
  }

  @Test
  void requireSameAsLadder_sameLimit_returnsTheLimitInForce() {
    QmaxArtifact ladder = ladderUnder(EnforcedCpu.of(HALF_ENFORCED));
    FakePlatform p = platform(HALF_ENFORCED);
    List<String> warnings = new ArrayList<>();
    assertThat(
            CpuLimitCheck.requireSameAsLadder(
                p, p.endpoint, ladder, "qmax.json", false, warnings::add))
        .isEqualTo(EnforcedCpu.of(HALF_ENFORCED));
    assertThat(warnings).isEmpty();
  }

  @Test
  void requireSameAsLadder_ladderWithoutARecordedLimit_warnsAndProceeds() {
    QmaxArtifact ladder = ladderUnder(null);
    FakePlatform p = platform(HALF_ENFORCED);
    List<String> warnings = new ArrayList<>();
    CpuLimitCheck.requireSameAsLadder(p, p.endpoint, ladder, "qmax.json", false, warnings::add);
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("qmax qmax.json does not record the CPU limit");
  }

  @Test
  void cpuLimit_writtenAndReadBack_survivesTheArtifactCodec(@TempDir Path tmp) {
    Path file = tmp.resolve("qmax.json");
    ArtifactCodec.write(file, ladderUnder(EnforcedCpu.of(HALF_ENFORCED)));
    assertThat(ArtifactCodec.readQmax(file).provenance().cpuLimit())
        .isEqualTo(EnforcedCpu.of(HALF_ENFORCED));
  }

  private static QmaxArtifact ladderUnder(EnforcedCpu cpu) {
    QmaxArtifact q = Recorded.quickstartQmax();
    return q.withProvenance(q.provenance().withCpuLimit(cpu));
  }
}
