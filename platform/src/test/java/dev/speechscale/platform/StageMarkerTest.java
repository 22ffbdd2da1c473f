package dev.speechscale.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StageMarkerTest {

  @Test
  void parse_exactLine_roundTrips() {
    String line = "=== STAGE weights_ready t=2026-08-04T14:48:02.756Z elapsed_s=6.489 ===";

    StageMarker m = StageMarker.parse(line).orElseThrow();

    assertThat(m.stage()).isEqualTo("weights_ready");
    assertThat(m.at()).isEqualTo(Instant.parse("2026-08-04T14:48:02.756Z"));
    assertThat(m.elapsedSeconds()).isEqualTo(6.489);
    assertThat(m.line()).isEqualTo(line);
  }

  @Test
  void parse_anythingNotByteExact_isNotAMarker() {
    assertThat(StageMarker.parse("=== STAGE ready t=2026-08-04T14:48:02.756Z elapsed_s=6.48 ==="))
        .isEmpty();
    assertThat(StageMarker.parse(" === STAGE ready t=2026-08-04T14:48:02.756Z elapsed_s=6.489 ==="))
        .isEmpty();
    assertThat(StageMarker.parse("=== STAGE ready t=2026-08-04T14:48:02Z elapsed_s=6.489 ==="))
        .isEmpty();
  }

  @Test
  void in_readsMarkersInLogOrder() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    InstanceLog log =
        new InstanceLog(
            "i-1",
            t,
            List.of(
                new InstanceLog.LogLine(t, "starting"),
                new InstanceLog.LogLine(t, new StageMarker("framework_init", t, 0.014).line()),
                new InstanceLog.LogLine(
                    t, new StageMarker("ready", t.plusSeconds(7), 7.0).line())));

    assertThat(StageMarker.in(log))
        .extracting(StageMarker::stage)
        .containsExactly("framework_init", "ready");
  }
}
