package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * An engine that keeps producing audio cannot grow a buffered response without bound (issue 11).
 */
class RunawaySynthesisTest {

  @Test
  void invocations_bufferedAudioPastMaxBufferedBytes_stopsTheEngineAndAnswersAudioTooLarge()
      throws Exception {
    int chunks = 400; // 400 × 3200 bytes = 1.28 MB of PCM, twenty times the 65536-byte bound
    ScriptedEngine engine = new ScriptedEngine(chunks, 1);
    engine.allow(chunks);
    try (TestServer s = TestServer.start(engine, "--max-buffered-bytes", "65536")) {
      HttpResponse<byte[]> r = s.post("{\"text\":\"runaway\",\"stream\":false,\"format\":\"pcm\"}");
      String body = new String(r.body(), StandardCharsets.UTF_8);
      assertThat(r.statusCode()).as(body).isEqualTo(413);
      assertThat(body)
          .contains("\"error\":\"audio_too_large\"")
          .contains("65536")
          .contains("--max-buffered-bytes");
      s.awaitIdle();
      assertThat(engine.cancelled.get()).as("the engine was stopped").isEqualTo(1);
      assertThat(engine.running.get()).isZero();
    }
  }
}
