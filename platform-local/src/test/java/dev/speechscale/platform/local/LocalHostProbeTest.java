package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.HostSpeedProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The local host probe: how it reads an instance's cores and lays out the hosts as the supervisor
 * pins instances, and real probe processes pinned to this machine's cores, started and stopped.
 */
class LocalHostProbeTest {

  @Test
  void allowedCores_listAndRanges_inOrder() {
    List<String> status = List.of("Name:\tjava", "Cpus_allowed:\t3", "Cpus_allowed_list:\t0,2-4,7");

    assertThat(LocalHostProbe.allowedCores(status)).containsExactly(0, 2, 3, 4, 7);
  }

  @Test
  void allowedCores_noLine_refuses() {
    assertThatThrownBy(() -> LocalHostProbe.allowedCores(List.of("Name:\tjava")))
        .hasMessageContaining("Cpus_allowed_list");
  }

  @Test
  void hosts_wholeCoreInstances_consecutiveGroups() {
    assertThat(LocalHostProbe.hosts(1, 2)).containsExactly(List.of(0), List.of(1));
    assertThat(LocalHostProbe.hosts(2, 4)).containsExactly(List.of(0, 1), List.of(2, 3));
  }

  @Test
  void hosts_instanceOnEveryCore_none() {
    assertThat(LocalHostProbe.hosts(2, 2)).isEmpty();
    assertThat(LocalHostProbe.hosts(0, 2)).isEmpty();
  }

  @Test
  void launchNumber_ofTheSupervisorsIds() {
    assertThat(LocalPlatform.launchNumber("i-local-7")).isEqualTo(7);
    assertThat(LocalPlatform.launchNumber("i-123")).isZero();
    assertThat(LocalPlatform.launchNumber("i-local-x")).isZero();
  }

  @Test
  void command_pinsTheProbeToItsHostsCores() {
    ServerBuild build = new ServerBuild("/cp.jar", "/jdk/bin/java");

    assertThat(LocalHostProbe.command(build, List.of(2, 3)))
        .startsWith(LocalHostProbe.TASKSET, "-c", "2,3", "/jdk/bin/java")
        .contains("-XX:ActiveProcessorCount=2", "/cp.jar", "dev.speechscale.server.HostProbe")
        .endsWith(Long.toString(LocalHostProbe.PERIOD_MS));
  }

  @Test
  void start_instanceOnEveryCore_isEmptyAndSaysWhy() throws Exception {
    int machine = Runtime.getRuntime().availableProcessors();
    if (machine < 2 || !Files.isExecutable(Path.of(LocalHostProbe.TASKSET))) {
      return;
    }
    StringBuilder set = new StringBuilder("0");
    for (int c = 1; c < machine; c++) {
      set.append(',').append(c);
    }
    Process everywhere = pinnedSleep(set.toString());
    try {
      StringBuilder why = new StringBuilder();
      assertThat(LocalHostProbe.start(everywhere.pid(), 1, 1, ServerBuild.current(), why))
          .isEmpty();
      assertThat(why.toString())
          .contains("may run on " + machine + " of the machine's " + machine + " cores");
    } finally {
      everywhere.destroy();
      everywhere.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void start_pinnedInstance_probesEveryHostThenStops() throws Exception {
    int machine = Runtime.getRuntime().availableProcessors();
    if (machine < 2 || !Files.isExecutable(Path.of(LocalHostProbe.TASKSET))) {
      return; // one core: nothing to tell apart (the machines here have two)
    }
    // a stand-in for an instance pinned to core 1, launched second: host 1 in service, host 0 next
    Process pinned = pinnedSleep("1");
    StringBuilder why = new StringBuilder();
    Optional<HostSpeedProbe> started =
        LocalHostProbe.start(pinned.pid(), 2, 2, ServerBuild.current(), why);
    try {
      assertThat(started).as(why.toString()).isPresent();
      HostSpeedProbe probe = started.orElseThrow();
      assertThat(probe.hosts()).isEqualTo(machine);
      assertThat(probe.inServiceHost()).isEqualTo(1);
      assertThat(probe.nextLaunchHost()).isEqualTo(2 % machine);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (Instant.now().isBefore(deadline)
          && probe.samples().stream().mapToInt(HostSpeedProbe.Sample::host).distinct().count()
              < machine) {
        Thread.sleep(100);
      }
      probe.close();
      List<HostSpeedProbe.Sample> samples = probe.samples();
      assertThat(samples.stream().mapToInt(HostSpeedProbe.Sample::host).distinct().count())
          .as(probe.describe())
          .isEqualTo(machine);
      assertThat(samples).allSatisfy(s -> assertThat(s.cpuMs()).isPositive().isLessThan(5000));
      assertThat(probe.describe()).contains("host 0 cores [0]", "host 1 cores [1]");
      assertThat(
              ProcessHandle.allProcesses()
                  .filter(p -> p.info().commandLine().orElse("").contains("server.HostProbe"))
                  .filter(p ->
                      p.parent().map(x -> x.pid() == ProcessHandle.current().pid()).orElse(false))
                  .count())
          .as("no probe outlives close()")
          .isZero();
    } finally {
      started.ifPresent(HostSpeedProbe::close);
      pinned.destroy();
      pinned.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void start_coresNotWherePinningPutsThem_isEmptyAndSaysWhy() throws Exception {
    int machine = Runtime.getRuntime().availableProcessors();
    if (machine < 2 || !Files.isExecutable(Path.of(LocalHostProbe.TASKSET))) {
      return;
    }
    // launched first, so pinning puts it on core 0; it runs on core 1
    Process pinned = pinnedSleep("1");
    try {
      StringBuilder why = new StringBuilder();
      assertThat(LocalHostProbe.start(pinned.pid(), 1, 1, ServerBuild.current(), why)).isEmpty();
      assertThat(why.toString()).contains("instance 1 runs on cores [1], not on the group [0]");
    } finally {
      pinned.destroy();
      pinned.waitFor(5, TimeUnit.SECONDS);
    }
  }

  /**
   * A {@code sleep 60} held to {@code cores}, its affinity set before this returns ({@code taskset
   * -p} on the running process, waited for), so there is no moment when it runs anywhere.
   */
  private static Process pinnedSleep(String cores) throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    Process set =
        new ProcessBuilder(LocalHostProbe.TASKSET, "-pc", cores, Long.toString(sleep.pid()))
            .redirectErrorStream(true)
            .start();
    String said =
        new String(set.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!set.waitFor(10, TimeUnit.SECONDS) || set.exitValue() != 0) {
      sleep.destroy();
      throw new AssertionError("taskset -pc " + cores + " failed: " + said);
    }
    return sleep;
  }
}
