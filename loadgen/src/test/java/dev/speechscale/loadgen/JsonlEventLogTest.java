package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.ResponseBreakdown;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonlEventLogTest {
  private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");
  private static final LongFunction<Instant> BASE = ORIGIN::plusNanos;

  @Test
  void completed_writesOneJsonLineWithTimesFromTheIntendedSend() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonlEventLog log = new JsonlEventLog(out, BASE);
    log.completed(
        new RequestEvent(
            RequestEvent.LoadModel.OPEN_LOOP,
            1,
            2,
            8,
            17,
            3,
            1_000_000,
            3_000_000,
            13_000_000,
            51_000_000,
            Outcome.OK,
            200,
            4800,
            42,
            null,
            ResponseBreakdown.UNKNOWN));
    log.flush();

    String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(1);
    JsonNode line = LadderLoopbackTest.parse(lines[0]);
    assertThat(line.get("load_model").asString()).isEqualTo("open-loop");
    assertThat(line.get("seq").asLong()).isEqualTo(17);
    assertThat(line.get("intended_at").asString()).isEqualTo("2026-01-01T00:00:00.001000Z");
    assertThat(line.get("send_lag_ms").asDouble()).isEqualTo(2.0);
    assertThat(line.get("ttfab_ms").asDouble()).isEqualTo(12.0);
    assertThat(line.get("latency_ms").asDouble()).isEqualTo(50.0);
    assertThat(line.get("outcome").asString()).isEqualTo("OK");
    assertThat(line.get("chars").asInt()).isEqualTo(42);
    assertThat(line.get("error").isNull()).isTrue();
    assertThat(line.get("instance").isNull()).isTrue();
  }

  @Test
  void completed_noAudio_ttfabIsNullAndTheErrorAndTheInstanceAreEscaped() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonlEventLog log = new JsonlEventLog(out, BASE);
    log.completed(
        new RequestEvent(
            RequestEvent.LoadModel.CLOSED_LOOP,
            0,
            0,
            1,
            0,
            0,
            0,
            0,
            -1,
            5_000_000,
            Outcome.REJECTED,
            503,
            0,
            5,
            "HTTP 503: {\"error\":\"queue_saturated\"}",
            new ResponseBreakdown(-1, -1, -1, "i-\"2\"")));
    log.close();

    JsonNode line = LadderLoopbackTest.parse(out.toString(StandardCharsets.UTF_8).strip());
    assertThat(line.get("ttfab_ms").isNull()).isTrue();
    assertThat(line.get("error").asString()).contains("\"queue_saturated\"");
    assertThat(line.get("instance").asString()).isEqualTo("i-\"2\"");
  }

  @Test
  void dropped_writesADroppedLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    JsonlEventLog log = new JsonlEventLog(out, BASE);
    log.dropped(1, 99, 2_000_000);
    log.flush();

    JsonNode line = LadderLoopbackTest.parse(out.toString(StandardCharsets.UTF_8).strip());
    assertThat(line.get("outcome").asString()).isEqualTo("DROPPED");
    assertThat(line.get("seq").asLong()).isEqualTo(99);
    assertThat(line.get("step_index").asInt()).isEqualTo(1);
  }
}
