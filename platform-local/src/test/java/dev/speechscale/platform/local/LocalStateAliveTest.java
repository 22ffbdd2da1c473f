package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Telling our live process from a recycled pid when the recorded start time and the kernel's
 * disagree (a VM whose wall clock was stepped): one of ours is still ours; a stranger is not.
 */
class LocalStateAliveTest {
  private Process process;

  @AfterEach
  void stop() throws InterruptedException {
    if (process != null) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void alive_startTimeOffButCommandLineIsOurs_isAlive() throws Exception {
    process = new ProcessBuilder("bash", "-c", "sleep 60; true", "dev.speechscale.test").start();
    Instant recorded = LocalState.startOf(process.toHandle()).minus(Duration.ofSeconds(22));

    assertThat(LocalState.alive(process.pid(), recorded)).isTrue();
  }

  @Test
  void alive_startTimeOffAndAStranger_isNotAlive() throws Exception {
    process = new ProcessBuilder("sleep", "60").start();
    Instant recorded = LocalState.startOf(process.toHandle()).minus(Duration.ofSeconds(22));

    assertThat(LocalState.alive(process.pid(), recorded)).isFalse();
  }

  @Test
  void alive_sameStart_isAlive() throws Exception {
    process = new ProcessBuilder("sleep", "60").start();

    assertThat(LocalState.alive(process.pid(), LocalState.startOf(process.toHandle()))).isTrue();
  }
}
