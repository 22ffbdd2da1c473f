package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.NanoClock;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The engine's own times (to its first chunk, to its return) are read on the server's injected
 * ticker, the one the gate and the TTFAB use: a fake ticker far from {@link System#nanoTime()} that
 * the engine itself moves gives exactly the durations it moved.
 */
class SynthesisJobClockTest {

  /** Moves the fake ticker 5 ms before its one chunk and 3 ms after it. */
  private static final class TickingEngine extends TestEngine {
    private final AtomicLong nowNanos;

    TickingEngine(AtomicLong nowNanos) {
      super("ticking", 1);
      this.nowNanos = nowNanos;
    }

    @Override
    public void synthesize(String text, String voice, double speed, PcmSink sink) {
      nowNanos.addAndGet(5_000_000L);
      sink.accept(new short[ScriptedEngine.CHUNK], 0, ScriptedEngine.CHUNK);
      nowNanos.addAndGet(3_000_000L);
    }
  }

  @Test
  void engineFirstChunkHeader_engineMovesAFakeTicker5ms_says5000() throws Exception {
    AtomicLong nowNanos = new AtomicLong(Long.MIN_VALUE / 2);
    NanoClock fake = nowNanos::get;
    try (TestServer s = TestServer.start(new TickingEngine(nowNanos), fake)) {
      HttpResponse<byte[]> r = s.post("{\"text\":\"hello\"}");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("X-Engine-First-Chunk-Us")).hasValue("5000");
    }
  }

  @Test
  void synthesisSeconds_engineMovesAFakeTicker8ms_records8msOnTheTicker() throws Exception {
    AtomicLong nowNanos = new AtomicLong(0L);
    NanoClock fake = nowNanos::get;
    try (TestServer s = TestServer.start(new TickingEngine(nowNanos), fake)) {
      assertThat(s.post("{\"text\":\"hello\",\"stream\":false}").statusCode()).isEqualTo(200);
      s.awaitIdle();
      assertThat(s.get("/metrics").body())
          .contains("speech_server_synthesis_seconds_count 1\n")
          .contains("speech_server_synthesis_seconds_sum 0.008\n");
    }
  }
}
