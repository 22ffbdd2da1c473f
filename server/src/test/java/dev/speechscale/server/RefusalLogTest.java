package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RefusalLogTest {

  @Test
  void line_isOneJsonEventWithTheCount() {
    assertThat(RefusalLog.line(1234)).isEqualTo("{\"event\":\"queue_saturated\",\"count\":1234}");
  }

  @Test
  void refusals_areSummedPerIntervalAndQuietIntervalsPrintNothing() throws Exception {
    AtomicLong total = new AtomicLong();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (RefusalLog log = new RefusalLog(total::get, out, Duration.ofMillis(20))) {
      total.addAndGet(7);
      Instant deadline = Instant.now().plusSeconds(10);
      while (!bytes.toString(StandardCharsets.UTF_8).contains("\n")
          && Instant.now().isBefore(deadline)) {
        Thread.onSpinWait();
      }
    }

    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed.lines()).containsExactly("{\"event\":\"queue_saturated\",\"count\":7}");
  }

  @Test
  void kinds_eachGetTheirOwnLineAndOnlyWhenTheyMoved() throws Exception {
    AtomicLong saturated = new AtomicLong();
    AtomicLong deliberate = new AtomicLong();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    try (RefusalLog log =
        new RefusalLog(
            java.util.Map.of(
                RefusalLog.QUEUE_SATURATED, saturated::get,
                RefusalLog.DELIBERATE_503, deliberate::get),
            out,
            Duration.ofMillis(20))) {
      deliberate.addAndGet(3); // e.g. deadline_shed and shutting_down on HTTP, no queue refusal
      Instant deadline = Instant.now().plusSeconds(10);
      while (!bytes.toString(StandardCharsets.UTF_8).contains("\n")
          && Instant.now().isBefore(deadline)) {
        Thread.onSpinWait();
      }
    }

    assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
        .containsExactly("{\"event\":\"deliberate_503\",\"count\":3}");
  }
}
