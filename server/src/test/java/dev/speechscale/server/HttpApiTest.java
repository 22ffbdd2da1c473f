package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** POST /invocations and the side endpoints over real HTTP against the flite engine. */
class HttpApiTest {
  private static TestServer server;
  @TempDir static Path tmp;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(new FliteEngine(2));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void ping_ready_is200() throws Exception {
    assertThat(server.get("/ping").statusCode()).isEqualTo(200);
  }

  @Test
  void invocations_default_streamsWavWithPlaceholderHeaderDecodableBySox() throws Exception {
    HttpResponse<byte[]> r = server.post("{\"text\":\"Hello there. This is a streaming test.\"}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValue("audio/wav");
    assertThat(r.headers().firstValue("content-length")).isEmpty(); // chunked
    ByteBuffer b = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(new String(r.body(), 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
    assertThat(b.getInt(4)).isEqualTo(0xFFFFFFFF);
    assertThat(b.getInt(40)).isEqualTo(0xFFFFFFFF);
    assertThat(r.body().length).isGreaterThan(44 + 16_000); // > 0.5 s of 16 kHz audio
    Sox.Info info = Sox.decode(r.body(), tmp);
    assertThat(info.sampleRateHz()).isEqualTo(16_000);
    assertThat(info.seconds()).isBetween(1.0, 6.0);
    assertThat(info.rmsAmplitude()).isGreaterThan(0.01);
  }

  @Test
  void invocations_buffered_hasRealSizesAndMeasurementHeaders() throws Exception {
    HttpResponse<byte[]> r = server.post("{\"text\":\"Hello there.\",\"stream\":false}");
    assertThat(r.statusCode()).isEqualTo(200);
    ByteBuffer b = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN);
    int data = r.body().length - 44;
    assertThat(b.getInt(4)).isEqualTo(36 + data);
    assertThat(b.getInt(40)).isEqualTo(data);
    double duration = Double.parseDouble(r.headers().firstValue("X-Audio-Duration").orElseThrow());
    assertThat(duration)
        .isCloseTo(data / 2.0 / 16_000.0, org.assertj.core.data.Offset.offset(0.001));
    assertThat(r.headers().firstValue("X-Inference-Time-Ms")).isPresent();
    assertThat(r.headers().firstValue("X-RTF")).isPresent();
    assertThat(r.headers().firstValue("X-Characters-Processed")).hasValue("12");
    assertThat(Sox.decode(r.body(), tmp).seconds())
        .isCloseTo(duration, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void invocations_pcmAt8k_isRawHalfLengthAudio() throws Exception {
    HttpResponse<byte[]> full =
        server.post("{\"text\":\"Hello there.\",\"format\":\"pcm\",\"stream\":false}");
    HttpResponse<byte[]> half =
        server.post(
            "{\"text\":\"Hello there.\",\"format\":\"pcm\",\"sample_rate\":8000,\"stream\":false}");
    assertThat(half.headers().firstValue("content-type"))
        .hasValue("audio/L16;rate=8000;channels=1");
    assertThat(new String(half.body(), 0, 4, StandardCharsets.US_ASCII)).isNotEqualTo("RIFF");
    assertThat((double) half.body().length / full.body().length).isBetween(0.49, 0.51);
  }

  @Test
  void invocations_mp3_streamsMpegFrames() throws Exception {
    HttpResponse<byte[]> r = server.post("{\"text\":\"Hello there, in MP3.\",\"format\":\"mp3\"}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValue("audio/mpeg");
    assertThat(r.body()[0] & 0xFF).isEqualTo(0xFF);
    assertThat(r.body().length).isGreaterThan(1000);
  }

  @Test
  void invocations_sentenceSegmentation_sameAudioLengthAsParagraph() throws Exception {
    try (TestServer sentence = TestServer.start(new FliteEngine(1), "--segmentation", "sentence")) {
      String body = "{\"text\":\"One sentence here. Another one there.\",\"stream\":false}";
      double whole =
          Double.parseDouble(
              server.post(body).headers().firstValue("X-Audio-Duration").orElseThrow());
      double cut =
          Double.parseDouble(
              sentence.post(body).headers().firstValue("X-Audio-Duration").orElseThrow());
      assertThat(cut / whole).isBetween(0.8, 1.25);
    }
  }

  @Test
  void invocations_bodyArrivingInTwoParts_isReadWholeAndServed() throws Exception {
    byte[] body = "{\"text\":\"Hello there, in two parts.\"}".getBytes(StandardCharsets.UTF_8);
    RawHttp.Reply r =
        RawHttp.postInTwoParts(server.port(), body, 9, java.time.Duration.ofMillis(200));
    assertThat(r.status()).isEqualTo(200);
    Sox.Info info = Sox.decode(r.body(), tmp);
    assertThat(info.seconds()).isBetween(0.5, 6.0);
    assertThat(info.rmsAmplitude()).isGreaterThan(0.01);
  }

  @Test
  void invocations_badFieldSplitAcrossTwoParts_is400NamingIt() throws Exception {
    byte[] body = "{\"text\":\"Hello\",\"speed\":9}".getBytes(StandardCharsets.UTF_8);
    RawHttp.Reply r =
        RawHttp.postInTwoParts(server.port(), body, 20, java.time.Duration.ofMillis(200));
    assertThat(r.status()).isEqualTo(400);
    assertThat(new String(r.body(), StandardCharsets.UTF_8))
        .contains("\"field\":\"speed\"")
        .contains("between");
  }

  @Test
  void invocations_badField_is400JsonNamingIt() throws Exception {
    HttpResponse<byte[]> r = server.post("{\"text\":\"hi\",\"sample_rate\":44100}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
    String json = new String(r.body(), StandardCharsets.UTF_8);
    assertThat(json).contains("\"field\":\"sample_rate\"").contains("[8000, 11025, 16000]");
    assertThat(json).startsWith("{\"error\":"); // every error body reads {"error": ...} first
  }

  @Test
  void invocations_staleTimestamp_is408RequestStale() throws Exception {
    double old = System.currentTimeMillis() / 1000.0 - 120;
    HttpResponse<byte[]> r = server.post("{\"text\":\"hi\",\"request_timestamp\":" + old + "}");
    assertThat(r.statusCode()).isEqualTo(408);
    assertThat(new String(r.body(), StandardCharsets.UTF_8))
        .contains("\"error\":\"request_stale\"");
  }

  @Test
  void invocations_freshTimestamp_isServed() throws Exception {
    double now = System.currentTimeMillis() / 1000.0;
    assertThat(server.post("{\"text\":\"hi\",\"request_timestamp\":" + now + "}").statusCode())
        .isEqualTo(200);
  }

  @Test
  void invocations_bodyOverLimit_is413WithoutReadingIt() throws Exception {
    String huge = "{\"text\":\"" + "a".repeat(200_000) + "\"}";
    HttpResponse<byte[]> r = server.post(huge);
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("--max-body-bytes");
  }

  @Test
  void metrics_afterTraffic_exposesGateCountersAndHistograms() throws Exception {
    server.post("{\"text\":\"Metrics please.\"}");
    server.post("{\"text\":\"hi\",\"speed\":9}");
    // The client can hold the last byte before the server's completion releases the permit
    // (CI saw in_flight 1, streaming 1 here): wait for the gate, bounded, then read.
    server.awaitIdle();
    String m = server.get("/metrics").body();
    assertThat(m)
        .contains("speech_server_in_flight 0")
        .contains("speech_server_queued 0")
        .contains("speech_server_admitted_total ")
        .contains("speech_server_rejected_total{reason=\"invalid_request\"}")
        .contains("speech_server_ttfab_seconds_bucket{le=\"+Inf\"}")
        .contains("speech_server_synthesis_seconds_count")
        .contains("speech_server_audio_seconds_total")
        .contains("speech_server_info{engine=\"flite\",sample_rate=\"16000\"} 1");
    assertThat(m).doesNotContain("code=\"500\"");
  }

  @Test
  void stats_isSmallJsonWithInFlight() throws Exception {
    String s = server.get("/stats").body();
    assertThat(s)
        .contains("\"in_flight\":")
        .contains("\"ready\":true")
        .contains("\"engine\":\"flite\"");
  }

  @Test
  void unknownPathAndWrongMethod_are404And405() throws Exception {
    assertThat(server.get("/nope").statusCode()).isEqualTo(404);
    assertThat(server.get("/invocations").statusCode()).isEqualTo(405);
  }
}
