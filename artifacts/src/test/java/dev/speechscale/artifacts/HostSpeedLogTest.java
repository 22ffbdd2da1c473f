package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.simulator.HostSpeeds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostSpeedLogTest {
  private static final long T0 = 1_000_000L;

  /** (host, ms after T0, cpu ms) */
  private static double[] at(int host, long afterMs, double cpuMs) {
    return new double[] {host, T0 + afterMs, cpuMs};
  }

  @Test
  void of_samplesBinnedBySecond_medianOfEach_nullWithoutOne() {
    HostSpeedLog log =
        HostSpeedLog.of(
            "probe",
            T0,
            3,
            2,
            0,
            1,
            List.of(
                at(0, 100, 20),
                at(0, 600, 40),
                at(0, 900, 30),
                at(0, 2500, 18),
                at(1, 1200, 10),
                at(1, 1700, 14),
                at(1, 3000, 99), // past the last second
                at(0, -1, 99))); // before second 0

    assertThat(log.cpuMsPerSecond().get(0)).containsExactly(30.0, null, 18.0);
    assertThat(log.cpuMsPerSecond().get(1)).containsExactly(null, 12.0, null);
    assertThat(log.secondsWithSamples(0)).isEqualTo(2);
  }

  @Test
  void inServiceQuantile_overTheInServiceHostsSeconds() {
    HostSpeedLog log =
        new HostSpeedLog(
            "p", T0, List.of(Arrays.asList(99.0), Arrays.asList(10.0, null, 30.0, 20.0)), 1, 0);

    assertThat(log.inServiceQuantile(0.5)).isEqualTo(20.0);
    assertThat(log.inServiceQuantile(0.0)).isEqualTo(10.0);
    assertThat(log.inServiceQuantile(0.75)).isCloseTo(25.0, within(1e-9));
    assertThat(
            new HostSpeedLog("p", T0, List.of(Arrays.asList((Double) null)), 0, 0)
                .inServiceQuantile(0.5))
        .isNull();
  }

  @Test
  void factors_overTheReference_gapsTakeTheNearestSecondBeforeElseAfter() {
    HostSpeedLog log =
        new HostSpeedLog(
            "p",
            T0,
            List.of(Arrays.asList(null, 40.0, null, 10.0), Arrays.asList(20.0, 20.0, 20.0, 20.0)),
            0,
            1);

    HostSpeeds s = log.factors(20, "test");

    assertThat(s.factorsBySecond().get(0)).containsExactly(2.0, 2.0, 2.0, 0.5);
    assertThat(s.factorsBySecond().get(1)).containsExactly(1.0, 1.0, 1.0, 1.0);
    assertThat(s.firstHost()).isZero();
    assertThat(s.nextHost()).isEqualTo(1);
  }

  @Test
  void factors_aHostWithoutAnySample_isNone() {
    HostSpeedLog log =
        new HostSpeedLog("p", T0, List.of(Arrays.asList(20.0), Arrays.asList((Double) null)), 0, 1);

    assertThat(log.factors(20, "test")).isEqualTo(HostSpeeds.NONE);
  }

  @Test
  void factors_badReference_refusedNamingIt() {
    HostSpeedLog log = new HostSpeedLog("p", T0, List.of(Arrays.asList(20.0)), 0, 0);

    assertThatThrownBy(() -> log.factors(0, "t"))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("reference (0.0 ms)");
  }

  @Test
  void new_hostOutOfRange_refusedNamingTheFields() {
    assertThatThrownBy(() -> new HostSpeedLog("p", T0, List.of(Arrays.asList(1.0)), 0, 1))
        .isInstanceOf(ArtifactException.class)
        .hasMessageContaining("in_service_host (0) and next_launch_host (1)");
  }

  @Test
  void summary_rangesPerHost_againstTheReference() {
    HostSpeedLog log =
        new HostSpeedLog(
            "p", T0, List.of(Arrays.asList(20.0, 40.0, 20.0), Arrays.asList((Double) null)), 0, 1);

    assertThat(log.summary(20.0))
        .isEqualTo(
            "host 0 (in service): 20.00 / 20.00 / 20.00 ms (p10/p50/p90, 3 s), x1.00–x1.00 the"
                + " reference; host 1: no sample");
  }

  @Test
  void qmaxArtifact_withHostSpeed_roundTripsAndGivesTheMedianAsReference(@TempDir Path dir) {
    QmaxArtifact q = ArtifactCodec.readQmax(Examples.QMAX);
    HostSpeedLog log =
        new HostSpeedLog(
            "p", T0, List.of(Arrays.asList(20.0, null, 24.0, 22.0), Arrays.asList(30.0)), 0, 1);
    Path file = dir.resolve("q.json");

    ArtifactCodec.write(file, q.withHostSpeed(log));
    QmaxArtifact back = ArtifactCodec.readQmax(file);

    assertThat(back.hostSpeed()).isEqualTo(log);
    // its rungs have no host_cpu_ms: the whole ladder's median, and the reference says so
    assertThat(back.hostSpeedReference(7.5).cpuMs()).isEqualTo(22.0);
    assertThat(back.hostSpeedReference(7.5).source()).contains("its rungs have no host_cpu_ms");
    assertThat(back.hostSpeedReference(null).source()).contains("the plan has no X(C_scale_max)");
    assertThat(q.hostSpeedReference(7.5)).as("an artifact without a log").isNull();
    assertThat(readString(file)).contains("\"host_speed\"", "\"cpu_ms_per_second\"");
  }

  @Test
  void inServiceMean_theSecondsTheWindowTouches_skippingEmptyOnes() {
    HostSpeedLog log =
        new HostSpeedLog(
            "p", T0, List.of(Arrays.asList(10.0, null, 20.0, 40.0), Arrays.asList(99.0)), 0, 1);

    assertThat(log.inServiceMean(T0 + 500, T0 + 2_100)).isEqualTo(15.0);
    assertThat(log.inServiceMean(T0 - 5_000, T0 + 60_000)).isCloseTo(70.0 / 3, within(1e-9));
    assertThat(log.inServiceMean(T0 + 1_000, T0 + 1_999)).as("only an empty second").isNull();
    assertThat(log.inServiceMean(T0 + 3_000, T0 + 1_000)).as("an empty window").isNull();
  }

  /**
   * A rung measured while its host ran slow does not make the reference the ladder's median: the
   * reference is the usable rungs' own host speeds, interpolated at C_scale_max as the plan
   * interpolates X there (the example's usable rungs are at N = 1, 5, 10, 20, ...).
   */
  @Test
  void hostSpeedReference_perRung_interpolatedAtCScaleMax(@TempDir Path dir) {
    QmaxArtifact q =
        ArtifactCodec.readQmax(Examples.QMAX)
            .withHostSpeed(
                new HostSpeedLog("p", T0, List.of(Arrays.asList(20.0, 20.0, 90.0)), 0, 0));
    List<QmaxStep> steps =
        q.steps().stream().map(s -> s.withHostCpuMs(s.concurrency() == 10 ? 30.0 : 20.0)).toList();
    QmaxArtifact withRungs =
        QmaxArtifact.of(
                new Stamp(q.toolVersion(), q.createdAt(), q.provenance()),
                new QmaxArtifact.Target(
                    q.model(), q.endpoint(), q.transport(), q.sloMs(), q.deployedConfig()),
                new QmaxArtifact.Conditions(
                    q.platform(), q.runs(), q.holdS(), q.windowS(), q.unboundedQueue()),
                steps)
            .withHostSpeed(q.hostSpeed());
    Path file = dir.resolve("q.json");
    ArtifactCodec.write(file, withRungs);
    QmaxArtifact back = ArtifactCodec.readQmax(file);

    assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, readString(file))).isEmpty();
    assertThat(readString(file)).contains("\"host_cpu_ms\"");
    assertThat(back.steps()).extracting(QmaxStep::hostCpuMs).doesNotContainNull();
    assertThat(back.hostSpeedReference(7.5).cpuMs()).isCloseTo(25.0, within(1e-9));
    assertThat(back.hostSpeedReference(7.5).source())
        .isEqualTo(
            "the usable rungs' host_cpu_ms at C_scale_max = 7.5, as the plan's X(C_scale_max)");
    assertThat(back.hostSpeedReference(10.0).cpuMs()).isEqualTo(30.0);
    // beyond the ladder the nearest end holds, as the throughput curve does
    assertThat(back.hostSpeedReference(500.0).cpuMs()).isEqualTo(20.0);
  }

  @Test
  void withHostCpuMs_refusesANonPositiveTime() {
    QmaxStep s = ArtifactCodec.readQmax(Examples.QMAX).steps().getFirst();

    assertThatThrownBy(() -> s.withHostCpuMs(0.0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("host_cpu_ms (0.0) must be finite and positive");
    assertThat(s.withHostCpuMs(null).hostCpuMs()).isNull();
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
