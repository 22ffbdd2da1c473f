package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Invokers;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The response-stream invoker, through the real async SDK client, against a local HTTP server that
 * speaks the SageMaker Runtime API with AWS event-stream framing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResponseStreamInvokerTest {
  private LocalRuntimeServer server;
  private Invoker invoker;
  private final AtomicLong ticks = new AtomicLong();

  @BeforeAll
  void start() throws IOException {
    server = new LocalRuntimeServer();
    invoker = Invokers.create(target(server.uri(), Duration.ofSeconds(90)));
  }

  @AfterAll
  void stop() {
    invoker.close();
    server.close();
  }

  private InvokerTarget target(URI uri, Duration timeout) {
    NanoClock counting = ticks::incrementAndGet;
    return new InvokerTarget(
        Transport.RESPONSE_STREAM,
        "speech-kokoro-82m",
        uri,
        "us-east-1",
        timeout,
        counting,
        Map.of());
  }

  private Invocation invoke() {
    try (Invoker.Connection c = invoker.connect()) {
      return c.invoke(SynthesisRequest.streaming("Hello from the stream."));
    }
  }

  @Test
  void invokers_responseStream_isServedByThisModule() {
    assertThat(invoker).isInstanceOf(ResponseStreamInvoker.class);
    assertThat(invoker.transport()).isEqualTo(Transport.RESPONSE_STREAM);
  }

  @Test
  void invoke_streamedWav_okWithTheAudioAfterTheHeader() {
    server.reply(new LocalRuntimeServer.Reply.Stream(LocalRuntimeServer.wavFrames(200, 44, 100)));

    Invocation i = invoke();

    assertThat(i.outcome()).as(i.error()).isEqualTo(Invocation.Outcome.OK);
    assertThat(i.status()).isEqualTo(200);
    assertThat(i.audioBytes()).isEqualTo(200);
    assertThat(i.firstAudioNanos()).isGreaterThan(i.sentNanos()).isLessThan(i.completedNanos());
    assertThat(server.lastPath())
        .isEqualTo("/endpoints/speech-kokoro-82m/invocations-response-stream");
    assertThat(server.lastBody())
        .isEqualTo("{\"text\":\"Hello from the stream.\",\"stream\":true}");
  }

  @Test
  void invoke_headerSplitAcrossParts_countsEveryAudioByteOnce() {
    server.reply(new LocalRuntimeServer.Reply.Stream(LocalRuntimeServer.wavFrames(37, 30, 20, 1)));

    Invocation i = invoke();

    assertThat(i.outcome()).isEqualTo(Invocation.Outcome.OK);
    assertThat(i.audioBytes()).isEqualTo(37);
  }

  @Test
  void invoke_headerOnly_isAServerErrorWithNoFirstAudio() {
    server.reply(new LocalRuntimeServer.Reply.Stream(LocalRuntimeServer.wavFrames(0, 44)));

    Invocation i = invoke();

    assertThat(i.outcome()).isEqualTo(Invocation.Outcome.SERVER_ERROR);
    assertThat(i.firstAudioNanos()).isEqualTo(-1);
    assertThat(i.error()).contains("no audio after the 44-byte WAV header");
  }

  @Test
  void invoke_containerQueueSaturated_isRejectedWithTheOriginalStatus() {
    server.reply(
        new LocalRuntimeServer.Reply.Failure(
            424,
            "ModelError",
            "{\"Message\":\"Received server error (503) from primary with message"
                + " queue_saturated\",\"OriginalStatusCode\":503,"
                + "\"OriginalMessage\":\"{\\\"error\\\":\\\"queue_saturated\\\",\\\"queue_depth\\\":50}\"}"));

    Invocation i = invoke();

    assertThat(i.outcome()).isEqualTo(Invocation.Outcome.REJECTED);
    assertThat(i.status()).isEqualTo(503);
    assertThat(i.error()).contains("queue_saturated");
  }

  @Test
  void invoke_containerBadRequest_isAClientError() {
    server.reply(
        new LocalRuntimeServer.Reply.Failure(
            424,
            "ModelError",
            "{\"Message\":\"Received client error (400)\",\"OriginalStatusCode\":400,"
                + "\"OriginalMessage\":\"{\\\"error\\\":\\\"text is required\\\"}\"}"));

    Invocation i = invoke();

    assertThat(i.outcome()).isEqualTo(Invocation.Outcome.CLIENT_ERROR);
    assertThat(i.status()).isEqualTo(400);
  }

  @Test
  void invoke_serviceUnavailable_isSentOnceBecauseRetriesAreOff() {
    server.reply(
        new LocalRuntimeServer.Reply.Failure(
            503, "ServiceUnavailable", "{\"Message\":\"the service is unavailable\"}"));
    int before = server.requests();

    Invocation i = invoke();

    assertThat(i.outcome()).isEqualTo(Invocation.Outcome.SERVER_ERROR);
    assertThat(i.status()).isEqualTo(503);
    assertThat(server.requests() - before).isEqualTo(1);
  }

  @Test
  void invoke_failureAfterThe200_isAServerErrorNotATruncation() {
    List<byte[]> frames = new ArrayList<>(LocalRuntimeServer.wavFrames(64, 44, 64));
    frames.add(EventStreamEncoder.modelStreamError("ModelStreamError", "engine failed"));
    server.reply(new LocalRuntimeServer.Reply.Stream(frames));

    Invocation i = invoke();

    assertThat(i.outcome()).isEqualTo(Invocation.Outcome.SERVER_ERROR);
    assertThat(i.status()).isEqualTo(200);
    assertThat(i.audioBytes()).isEqualTo(64);
    assertThat(i.error()).contains("after the 200").contains("engine failed");
  }

  @Test
  void invoke_nothingListening_isATransportError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (Invoker closed =
            Invokers.create(
                target(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(30)));
        Invoker.Connection c = closed.connect()) {
      Invocation i = c.invoke(SynthesisRequest.streaming("hi"));

      assertThat(i.outcome()).isEqualTo(Invocation.Outcome.TRANSPORT_ERROR);
      assertThat(i.status()).isZero();
    }
  }

  @Test
  void meter_firstAudioByte_isByte45WhicheverPartCarriesIt() {
    AtomicLong now = new AtomicLong();
    WavAudioMeter meter = new WavAudioMeter(now::get);

    now.set(10);
    meter.accept(40);
    now.set(20);
    meter.accept(4);
    assertThat(meter.firstAudioNanos()).isEqualTo(-1);
    now.set(30);
    meter.accept(1);
    now.set(40);
    meter.accept(9);

    assertThat(meter.firstAudioNanos()).isEqualTo(30);
    assertThat(meter.audioBytes()).isEqualTo(10);
  }

  @Test
  void outcome_statusAndBody_classifyAsTheSpiDefines() {
    assertThat(ResponseStreamInvoker.outcome(503, "{\"error\":\"queue_saturated\"}"))
        .isEqualTo(Invocation.Outcome.REJECTED);
    assertThat(ResponseStreamInvoker.outcome(408, "request_stale"))
        .isEqualTo(Invocation.Outcome.REJECTED);
    assertThat(ResponseStreamInvoker.outcome(503, "overloaded"))
        .isEqualTo(Invocation.Outcome.SERVER_ERROR);
    assertThat(ResponseStreamInvoker.outcome(429, "throttled"))
        .isEqualTo(Invocation.Outcome.CLIENT_ERROR);
    assertThat(ResponseStreamInvoker.outcome(500, "boom"))
        .isEqualTo(Invocation.Outcome.SERVER_ERROR);
  }
}
