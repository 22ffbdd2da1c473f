package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.admission.Ticker;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Time to first audio byte is measured on the server's injected ticker, start and end alike. */
class StreamWriterTest {

  @Test
  void ttfab_withAFakeTickerThatDoesNotMove_recordsZero() throws Exception {
    AtomicLong nowNanos = new AtomicLong(1_000L);
    Ticker frozen = nowNanos::get;
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    try (TestServer s = TestServer.start(engine, frozen)) {
      assertThat(s.post("{\"text\":\"hello\"}").statusCode()).isEqualTo(200);
      s.awaitIdle();
      assertThat(s.runtime.metrics.ttfab.count()).isEqualTo(1);
      assertThat(s.get("/metrics").body())
          .contains("speech_server_ttfab_seconds_bucket{le=\"0.001\"} 1\n")
          .contains("speech_server_ttfab_seconds_sum 0.0\n");
    }
  }
}
