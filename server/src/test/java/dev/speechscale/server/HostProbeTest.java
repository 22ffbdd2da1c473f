package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The host probe as the local platform runs it: a child process that stops when its parent does.
 */
class HostProbeTest {

  private static Process probe(String... args) throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                classpath,
                HostProbe.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  @Test
  void main_printsReadyThenTimedUnits_andExitsWhenItsInputCloses() throws Exception {
    Process p = probe("50");
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("ready");
      long before = System.currentTimeMillis();
      for (int i = 0; i < 3; i++) {
        String[] f = out.readLine().split(" ");
        assertThat(f).hasSize(2);
        assertThat(Long.parseLong(f[0])).isBetween(before - 60_000, before + 60_000);
        // the unit's CPU time in µs: a Flite synthesis takes milliseconds, never nothing
        assertThat(Long.parseLong(f[1])).isBetween(100L, 5_000_000L);
      }

      p.getOutputStream().close();

      assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("exits when its input closes").isTrue();
      assertThat(p.exitValue()).isZero();
    } finally {
      p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void main_badPeriod_exits2NamingIt() throws Exception {
    Process p = probe("fast");
    try {
      String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

      assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(2);
      assertThat(said).contains("PERIOD_MS (fast) must be a whole number >= 1");
    } finally {
      p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void unit_synthesizesTheWholeText() {
    try (FliteEngine engine = new FliteEngine(1)) {
      assertThat(HostProbe.unit(engine, HostProbe.TEXT)).as("samples of audio").isGreaterThan(1000);
    }
  }
}
