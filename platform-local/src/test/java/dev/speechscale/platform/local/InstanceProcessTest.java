package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How an instance's log stream is captured. */
class InstanceProcessTest {
  @TempDir Path dir;

  /**
   * Silent instances must not take the JVM's virtual threads with them. Reading each instance's
   * stdout on a virtual thread pinned a carrier per silent pipe; once the scheduler's spare
   * carriers had idled out, no virtual thread ran again, and the supervisor's control API (virtual
   * threads) hung for good. Idling past the scheduler's 30 s keep-alive reproduced that, at 40 s a
   * run; what prevents it is that every reader is a platform thread of its own, so the test checks
   * that directly (a virtual reader is not among the JVM's platform threads and fails it).
   */
  @Test
  void capture_moreSilentInstancesThanCores_virtualThreadsStillRun() throws Exception {
    int count = Runtime.getRuntime().availableProcessors() + 1;
    List<InstanceProcess> instances = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        InstanceProcess p =
            InstanceProcess.launch(
                "i-silent-" + i,
                List.of(
                    "/bin/sh",
                    "-c",
                    "echo '" + InstanceProcess.LISTENING + "127.0.0.1:1'; exec sleep 300"),
                Map.of(),
                dir.resolve("i-" + i + ".log"),
                Clock.systemUTC());
        instances.add(p);
        assertThat(p.awaitPort(Duration.ofSeconds(30))).isEqualTo(1);
      }

      Set<String> readers =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.isAlive() && !t.isVirtual())
              .map(Thread::getName)
              .collect(Collectors.toSet());
      assertThat(readers)
          .as("each silent instance's log is read on a platform thread of its own")
          .containsAll(instances.stream().map(p -> "log-" + p.id()).collect(Collectors.toList()));

      CountDownLatch ran = new CountDownLatch(1);
      Thread.ofVirtual().start(ran::countDown);
      assertThat(ran.await(10, TimeUnit.SECONDS))
          .as("a virtual thread runs while %d instances are silent", count)
          .isTrue();
    } finally {
      instances.forEach(p -> p.stop(Duration.ofSeconds(5)));
    }
  }
}
