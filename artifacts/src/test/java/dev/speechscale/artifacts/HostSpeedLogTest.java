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
  void nextOverInService_theNewHostsMeanOverTheOldOnes_nullWithTooFewSeconds() {
    HostSpeedLog log =
        new HostSpeedLog(
            "p",
            T0,
            List.of(Arrays.asList(10.0, 10.0, 20.0, 20.0), Arrays.asList(15.0, null, 45.0, 45.0)),
            0,
            1);
    // seconds 0-1: new 15 (one second), old 10
    assertThat(log.nextOverInService(T0, T0 + 1_999, 1)).isCloseTo(1.5, within(1e-12));
    assertThat(log.nextOverInService(T0, T0 + 1_999, 2)).isNull();
    // seconds 0-3: new (15 + 45 + 45) / 3 = 35, old 15
    assertThat(log.nextOverInService(T0, T0 + 3_999, 3)).isCloseTo(35.0 / 15, within(1e-12));
    assertThat(log.nextOverInService(T0 + 9_000, T0 + 9_999, 1)).isNull();
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
    // its rungs have no host_cpu_ms: the ladder's median, its rungs taken as measured
    assertThat(back.hostSpeedReference().cpuMs()).isEqualTo(22.0);
    assertThat(back.hostSpeedReference().perRung()).isFalse();
    assertThat(back.hostSpeedReference().source()).contains("its rungs have no host_cpu_ms");
    assertThat(q.hostSpeedReference()).as("an artifact without a log").isNull();
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
   * A rung measured while its host ran slow is brought to the ladder's median host speed: its times
   * shrink and its throughput grows by the ratio, so it is not taken for a slow instance (the
   * example's usable rungs are at N = 1, 5, 10, 20, ...; the host log's median is 20 ms).
   */
  @Test
  void atHostSpeed_bringsEachRungToTheMedian(@TempDir Path dir) {
    QmaxArtifact q =
        ArtifactCodec.readQmax(Examples.QMAX)
            .withHostSpeed(
                new HostSpeedLog("p", T0, List.of(Arrays.asList(20.0, 20.0, 90.0)), 0, 0));
    List<QmaxStep> steps =
        q.steps().stream().map(s -> s.withHostCpuMs(s.concurrency() == 10 ? 25.0 : 20.0)).toList();
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
    QmaxArtifact.HostSpeedReference ref = back.hostSpeedReference();
    assertThat(ref.cpuMs()).isEqualTo(20.0);
    assertThat(ref.perRung()).isTrue();
    assertThat(ref.source()).contains("each rung scaled to it from its own host_cpu_ms");

    QmaxArtifact at = back.atHostSpeed(ref.cpuMs());
    QmaxStep slow = back.steps().stream().filter(s -> s.concurrency() == 10).findFirst().get();
    QmaxStep fast = at.steps().stream().filter(s -> s.concurrency() == 10).findFirst().get();
    assertThat(fast.hostCpuMs()).isEqualTo(20.0);
    assertThat(fast.achievedRps()).isCloseTo(slow.achievedRps() * 1.25, within(1e-9));
    assertThat(fast.ttfabP95Ms()).isCloseTo(slow.ttfabP95Ms() * 0.8, within(1e-9));
    assertThat(fast.latencyMeanMs()).isCloseTo(slow.latencyMeanMs() * 0.8, within(1e-9));
    assertThat(fast.completed()).isEqualTo(slow.completed());
    // a rung already at the reference is untouched
    QmaxStep one = back.steps().getFirst();
    assertThat(at.steps().getFirst()).isEqualTo(one);
  }

  @Test
  void histogramsScaled_movesEveryValueAndKeepsTheCounts() {
    org.HdrHistogram.Histogram h = Histograms.newMicros();
    h.recordValueWithCount(10_000, 3);
    h.recordValueWithCount(50_000, 1);

    org.HdrHistogram.Histogram s = Histograms.decode(Histograms.scaled(Histograms.encode(h), 0.8));

    assertThat(s.getTotalCount()).isEqualTo(4);
    assertThat(s.getMean()).isCloseTo(h.getMean() * 0.8, within(0.002 * h.getMean()));
    assertThat(s.getMaxValue()).isCloseTo(40_000L, within(40L));
    assertThat(Histograms.scaled(null, 0.8)).isNull();
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
