package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.HostSpeedLog;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.platform.HostSpeedProbe;
import dev.speechscale.simulator.HostSpeeds;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class HostSpeedLogsTest {
  private static final QmaxArtifact.HostSpeedReference REF =
      new QmaxArtifact.HostSpeedReference(20.0, true, "the rungs");
  private static final HostSpeedLog LIVE =
      new HostSpeedLog(
          "two cores", 0, List.of(Arrays.asList(20.0, 40.0), Arrays.asList(20.0, 20.0)), 0, 1);

  @Test
  void decide_liveAndReference_appliesTheRatioAndSaysSo() {
    HostSpeedLogs.Decision d = HostSpeedLogs.decide(LIVE, REF, HostSpeedLogs.Source.LIVE, "q.json");

    assertThat(d.speeds().factorsBySecond().get(0)).containsExactly(1.0, 2.0);
    assertThat(d.note())
        .startsWith("applied:")
        .contains("over 20.000 ms (the rungs)", "host 0 (in service)");
  }

  @Test
  void decide_off_appliesNothing() {
    HostSpeedLogs.Decision d = HostSpeedLogs.decide(LIVE, REF, HostSpeedLogs.Source.OFF, "q.json");

    assertThat(d.speeds()).isEqualTo(HostSpeeds.NONE);
    assertThat(d.note()).isEqualTo("not applied (--host-speed off)");
  }

  @Test
  void decide_qmaxWithoutLog_namesTheFileAndTheFix() {
    HostSpeedLogs.Decision d =
        HostSpeedLogs.decide(LIVE, null, HostSpeedLogs.Source.LIVE, "q.json");

    assertThat(d.speeds()).isEqualTo(HostSpeeds.NONE);
    assertThat(d.note()).contains("q.json has no host_speed", "re-measure qmax");
  }

  @Test
  void decide_notProbed_saysSo() {
    HostSpeedLogs.Decision d = HostSpeedLogs.decide(null, REF, HostSpeedLogs.Source.LIVE, "q.json");

    assertThat(d.speeds()).isEqualTo(HostSpeeds.NONE);
    assertThat(d.note()).contains("did not probe");
  }

  @Test
  void decide_aHostWithoutSamples_appliesNothing() {
    HostSpeedLog half =
        new HostSpeedLog("p", 0, List.of(Arrays.asList(20.0), Arrays.asList((Double) null)), 0, 1);

    assertThat(HostSpeedLogs.decide(half, REF, HostSpeedLogs.Source.LIVE, "q").note())
        .contains("a host has no probe sample");
  }

  @Test
  void log_theProbesSamplesFromTheStart() {
    HostSpeedProbe probe =
        new HostSpeedProbe() {
          @Override
          public int hosts() {
            return 2;
          }

          @Override
          public int inServiceHost() {
            return 1;
          }

          @Override
          public int nextLaunchHost() {
            return 0;
          }

          @Override
          public List<Sample> samples() {
            return List.of(
                new Sample(1, 10_500, 21), new Sample(0, 11_200, 30), new Sample(1, 9_000, 99));
          }

          @Override
          public String describe() {
            return "recorded";
          }

          @Override
          public void close() {}
        };

    HostSpeedLog log = HostSpeedLogs.log(probe, Instant.ofEpochMilli(10_000), 2);

    assertThat(log.cpuMsPerSecond().get(0)).containsExactly(null, 30.0);
    assertThat(log.cpuMsPerSecond().get(1)).containsExactly(21.0, null);
    assertThat(log.inServiceHost()).isEqualTo(1);
    assertThat(log.nextLaunchHost()).isZero();
    assertThat(log.probe()).isEqualTo("recorded");
  }
}
