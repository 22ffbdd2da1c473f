package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.NanoClock;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Time to first audio byte and the queue wait a 200 reports are measured on the server's injected
 * ticker, start and end alike.
 */
class StreamWriterTest {

  @Test
  void ttfab_withAFakeTickerThatDoesNotMove_recordsZero() throws Exception {
    AtomicLong nowNanos = new AtomicLong(1_000L);
    NanoClock frozen = nowNanos::get;
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

  @Test
  void queueWaitHeader_aRequestQueuedWhileTheTickerMoves7ms_says7000AndTheFirstSays0()
      throws Exception {
    AtomicLong nowNanos = new AtomicLong(1_000L);
    NanoClock fake = nowNanos::get;
    ScriptedEngine engine = new ScriptedEngine(2, 1); // one slot; a call holds it until allowed
    try (TestServer s = TestServer.start(engine, fake)) {
      CompletableFuture<HttpResponse<InputStream>> first = s.stream("one");
      assertThat(engine.firstChunkSent.await(30, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<HttpResponse<InputStream>> second = s.stream("two");
      s.awaitQueued(1);
      nowNanos.addAndGet(7_000_000L);
      engine.allow(2);
      HttpResponse<InputStream> a = first.get(30, TimeUnit.SECONDS);
      a.body().readAllBytes();
      HttpResponse<InputStream> b = second.get(30, TimeUnit.SECONDS);
      b.body().readAllBytes();
      assertThat(a.headers().firstValue("X-Queue-Wait-Us")).hasValue("0");
      assertThat(b.headers().firstValue("X-Queue-Wait-Us")).hasValue("7000");
      assertThat(b.headers().firstValue("X-Engine-First-Chunk-Us")).isPresent();
      s.awaitIdle();
      assertThat(s.runtime.metrics.queueWait.count()).isEqualTo(2);
    }
  }

  @Test
  void queueWaitHeader_bufferedResponse_isSentToo() throws Exception {
    AtomicLong nowNanos = new AtomicLong(5_000L);
    NanoClock frozen = nowNanos::get;
    try (TestServer s = TestServer.start(new ScriptedEngine(1, 1), frozen)) {
      HttpResponse<byte[]> r = s.post("{\"text\":\"hello\",\"stream\":false}");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("X-Queue-Wait-Us")).hasValue("0");
    }
  }
}
