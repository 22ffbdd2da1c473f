package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.NanoClock;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The gate, streaming and lifecycle over real HTTP/WebSocket with a test-driven engine. */
class GateAndStreamingTest {

  @Test
  void invocations_pastTheBound_get503QueueSaturatedWithRetryAfter() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "2")) {
      var held = s.streamUntilInFlight("one", "two");
      HttpResponse<byte[]> third = s.post("{\"text\":\"three\"}");
      assertThat(third.statusCode()).isEqualTo(503);
      assertThat(third.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(new String(third.body(), StandardCharsets.UTF_8))
          .isEqualTo("{\"error\":\"queue_saturated\",\"queue_depth\":2,\"max_queue_depth\":2}\n");
      engine.allow(2);
      assertThat(held.get(0).get(30, TimeUnit.SECONDS).body().readAllBytes())
          .hasSize(44 + 2 * 2 * ScriptedEngine.CHUNK);
      assertThat(held.get(1).get(30, TimeUnit.SECONDS).body().readAllBytes())
          .hasSize(44 + 2 * 2 * ScriptedEngine.CHUNK);
      s.awaitIdle();
      assertThat(s.server.metrics().rejectedCount("queue_saturated")).isEqualTo(1);
      assertThat(s.server.metrics().deliberateHttp503())
          .as("what the 5xx alarm subtracts")
          .isEqualTo(1);
    }
  }

  /**
   * The saturated fast path answers before the request body is read. On a keep-alive connection the
   * server must then either say {@code Connection: close} or keep the connection usable: a silent
   * close leaves the client's pool holding a dead connection, and its next POST fails with "header
   * parser received no bytes" (seen once in OverloadTest). The body arrives only after the 503, the
   * order that made the server close without saying so.
   */
  @Test
  void invocations_saturatedOnKeepAlive_saysCloseOrStaysUsable() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "1")) {
      var held = s.streamUntilInFlight("held").getFirst();
      byte[] body = "{\"text\":\"three\"}".getBytes(StandardCharsets.US_ASCII);
      try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), s.port())) {
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /invocations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: "
                    + body.length
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        String head = readHead(in);
        assertThat(head).startsWith("HTTP/1.1 503");
        int length = contentLength(head);
        assertThat(in.readNBytes(length)).hasSize(length);
        if (head.toLowerCase(java.util.Locale.ROOT).contains("\r\nconnection: close")) {
          assertThat(in.read()).as("the server closes, as it said").isEqualTo(-1);
        } else {
          out.write(body);
          out.write(
              "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
          assertThat(readHead(in))
              .as("no Connection: close on the 503, so the connection must still answer")
              .startsWith("HTTP/1.1 200");
        }
      }
      engine.allow(2);
      held.get(30, TimeUnit.SECONDS).body().readAllBytes();
      s.awaitIdle();
    }
  }

  private static String readHead(InputStream in) throws java.io.IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new AssertionError("the connection closed after: " + head);
      }
      head.append((char) b);
    }
    return head.toString();
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring("content-length:".length()).strip());
      }
    }
    throw new AssertionError("no Content-Length in: " + head);
  }

  @Test
  void websocket_sharesTheGateWithHttp() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "1");
        WsClient ws = new WsClient(s.port())) {
      var held = s.streamUntilInFlight("held").getFirst();
      ws.sendText("{\"text\":\"hello\",\"request_id\":\"w1\"}");
      String refused = ws.nextText();
      assertThat(refused)
          .contains("\"type\":\"error\"")
          .contains("\"request_id\":\"w1\"")
          .contains("\"error\":\"queue_saturated\"")
          .contains("\"max_queue_depth\":1");
      engine.allow(1);
      assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      s.awaitIdle();
      ws.sendText("{\"text\":\"now\",\"request_id\":\"w2\"}");
      assertThat(ws.nextText()).contains("synthesis_start");
      engine.allow(1);
      assertThat(ws.next()).isInstanceOf(byte[].class);
      assertThat(ws.next()).isInstanceOf(byte[].class);
      assertThat(ws.nextText()).contains("synthesis_complete");
    }
  }

  @Test
  void websocket_protocol_streamsEachChunkAsProducedAndKeepsSessionOnErrors() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(3, 1);
    try (TestServer s = TestServer.start(engine);
        WsClient ws = new WsClient(s.port())) {
      ws.sendText("{\"text\":\"Hello\",\"request_id\":\"r1\"}");
      assertThat(ws.nextText()).isEqualTo("{\"type\":\"synthesis_start\",\"request_id\":\"r1\"}");
      // the first chunk arrives while the engine is still held before its second chunk
      assertThat((byte[]) ws.next()).hasSize(2 * ScriptedEngine.CHUNK);
      assertThat(engine.running.get()).isEqualTo(1);
      engine.allow(2);
      assertThat((byte[]) ws.next()).hasSize(2 * ScriptedEngine.CHUNK);
      assertThat((byte[]) ws.next()).hasSize(2 * ScriptedEngine.CHUNK);
      String done = ws.nextText();
      assertThat(done)
          .startsWith(
              "{\"type\":\"synthesis_complete\",\"request_id\":\"r1\",\"total_duration_s\":0.3,\"elapsed_s\":");

      ws.sendText("{not json");
      assertThat(ws.nextText()).contains("\"type\":\"error\"").contains("invalid_request");
      ws.sendText("{\"text\":\"hi\",\"speed\":5,\"request_id\":\"r2\"}");
      assertThat(ws.nextText()).contains("\"request_id\":\"r2\"").contains("\"field\":\"speed\"");

      engine.allow(2);
      ws.sendBinary("{\"text\":\"as binary\",\"request_id\":\"r3\",\"sample_rate\":8000}");
      assertThat(ws.nextText()).contains("synthesis_start");
      int bytes = 0;
      Object m = ws.next();
      while (m instanceof byte[] b) {
        bytes += b.length;
        m = ws.next();
      }
      assertThat((String) m).contains("synthesis_complete").contains("\"total_duration_s\":0.3");
      assertThat(bytes)
          .isBetween(2 * 3 * ScriptedEngine.CHUNK / 2 - 4, 2 * 3 * ScriptedEngine.CHUNK / 2 + 4);

      ws.sendText("{\"type\":\"close\"}");
      assertThat(ws.nextText()).startsWith("closed:1000");
      s.awaitIdle();
    }
  }

  @Test
  void invocations_clientHangsUpMidStream_cancelsSynthesisAndFreesPermit() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(100_000, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "1")) {
      try (Socket socket = new Socket(java.net.InetAddress.getLoopbackAddress(), s.port())) {
        String body = "{\"text\":\"a long one\"}";
        OutputStream out = socket.getOutputStream();
        out.write(
            ("POST /invocations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.length()
                    + "\r\n\r\n"
                    + body)
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        assertThat(in.read(new byte[1024])).isPositive(); // the 200 and the first audio arrived
      } // hang up mid-stream
      engine.allow(100_000);
      s.awaitIdle();
      assertThat(engine.cancelled.get()).isEqualTo(1);
      assertThat(engine.running.get()).isZero();
      assertThat(s.get("/metrics").body())
          .contains("speech_server_stream_failures_total{reason=\"client_disconnected\"} 1");
      // the permit came back: the bound of 1 admits again
      var again = s.runtime.gate.admit();
      assertThat(again).isInstanceOf(dev.speechscale.admission.Admission.Admitted.class);
      ((dev.speechscale.admission.Admission.Admitted) again).permit().close();
    }
  }

  @Test
  void invocations_queuedPastDeadline_isShedWith503() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(2, 1);
    try (TestServer s = TestServer.start(engine, "--max-request-age-s", "1")) {
      engine.allow(1);
      assertThat(s.post("{\"text\":\"warm the request path first\"}").statusCode()).isEqualTo(200);
      engine.firstChunkSent = new java.util.concurrent.CountDownLatch(1); // the warm-up counted it
      var held = s.stream("held");
      assertThat(engine.firstChunkSent.await(30, TimeUnit.SECONDS)).as("first chunk sent").isTrue();
      HttpResponse<byte[]> shed =
          s.post("{\"text\":\"late\"}"); // waits ~1 s in the queue, then shed
      assertThat(shed.statusCode()).isEqualTo(503);
      assertThat(new String(shed.body(), StandardCharsets.UTF_8))
          .contains("\"error\":\"deadline_shed\"");
      engine.allow(1);
      assertThat(held.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
      s.awaitIdle();
      assertThat(engine.calls.get()).isEqualTo(2); // the shed request never reached the engine
    }
  }

  @Test
  void ping_beforeReady_is503AndInvocationsRefused() throws Exception {
    ServerConfig config = ServerConfig.parse(java.util.List.of("--port", "0"), Map.of());
    var stdout = new java.io.ByteArrayOutputStream();
    SpeechServer server =
        new SpeechServer(
            config,
            new PrintStream(stdout, true, StandardCharsets.UTF_8),
            NanoClock.SYSTEM,
            Clock.systemUTC());
    try (var http = java.net.http.HttpClient.newHttpClient()) {
      int port = server.start();
      assertThat(stdout.toString(StandardCharsets.UTF_8))
          .isEqualTo("speech-server listening on 127.0.0.1:" + port + "\n");
      URI base = URI.create("http://127.0.0.1:" + port);
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("/ping")).build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode())
          .isEqualTo(503);
      var refused =
          http.send(
              HttpRequest.newBuilder(base.resolve("/invocations"))
                  .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"x\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(refused.body()).contains("not_ready");
      server.attach(new ScriptedEngine(1, 1));
      server.markReady();
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("/ping")).build(),
                      HttpResponse.BodyHandlers.discarding())
                  .statusCode())
          .isEqualTo(200);
    } finally {
      server.shutdown(Duration.ofSeconds(5));
    }
  }

  @Test
  void shutdown_drainsInFlightStreamAndRefusesNewWork() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(3, 1);
    TestServer s = TestServer.start(engine);
    try {
      var inFlight = s.streamUntilInFlight("finish me").getFirst();
      assertThat(engine.firstChunkSent.await(30, TimeUnit.SECONDS)).as("first chunk sent").isTrue();
      CompletableFuture<Boolean> drained =
          CompletableFuture.supplyAsync(() -> s.server.shutdown(Duration.ofSeconds(30)));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (s.server.isReady()) {
        assertThat(System.nanoTime()).isLessThan(deadline);
        Thread.onSpinWait();
      }
      HttpResponse<byte[]> refused = s.post("{\"text\":\"too late\"}");
      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(s.get("/ping").statusCode()).isEqualTo(503);
      engine.allow(2);
      assertThat(inFlight.get(30, TimeUnit.SECONDS).body().readAllBytes())
          .hasSize(44 + 3 * 2 * ScriptedEngine.CHUNK);
      assertThat(drained.get(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      s.close();
    }
  }

  @Test
  void invocations_engineFailsAfterThe200_abortsTheStreamVisibly() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(3, 1);
    engine.failAfterFirstChunk = true;
    try (TestServer s = TestServer.start(engine)) {
      HttpResponse<InputStream> r = s.stream("doomed").get(30, TimeUnit.SECONDS);
      assertThat(r.statusCode()).isEqualTo(200);
      // no clean end of stream: the chunked body is cut without its terminating chunk
      assertThatThrownBy(() -> r.body().readAllBytes()).isInstanceOf(java.io.IOException.class);
      s.awaitIdle();
      assertThat(s.get("/metrics").body())
          .contains("speech_server_stream_failures_total{reason=\"engine_error\"} 1");
    }
  }

  @Test
  void websocket_clientDisconnectsMidSynthesis_cancelsAndFreesPermit() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(100_000, 1);
    try (TestServer s = TestServer.start(engine, "--max-queue-depth", "1")) {
      try (WsClient ws = new WsClient(s.port())) {
        ws.sendText("{\"text\":\"long\"}");
        assertThat(ws.nextText()).contains("synthesis_start");
        assertThat(ws.next()).isInstanceOf(byte[].class);
      } // aborts the connection mid-synthesis
      engine.allow(100_000);
      s.awaitIdle();
      assertThat(engine.cancelled.get()).isEqualTo(1);
      assertThat(engine.running.get()).isZero();
    }
  }
}
