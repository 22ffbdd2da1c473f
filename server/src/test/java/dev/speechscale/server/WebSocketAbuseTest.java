package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * WebSocket clients that abuse the session (issue 11): too many sessions, messages sent faster than
 * they are served, a client that stops reading, oversize messages, bad JSON, an abrupt TCP close.
 * Whatever the client does, its session is closed, its permit released and its count returned.
 */
class WebSocketAbuseTest {

  @Test
  void upgrade_pastMaxWsSessions_isRefusedWith503AndAdmittedAgainOnceOneCloses() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    try (TestServer s = TestServer.start(engine, "--max-ws-sessions", "2")) {
      WsClient first = new WsClient(s.port());
      try (WsClient second = new WsClient(s.port())) {
        await(() -> s.runtime.wsSessions() == 2, "two sessions open");
        assertThatThrownBy(() -> new WsClient(s.port()))
            .isInstanceOf(CompletionException.class)
            .cause()
            .isInstanceOf(WebSocketHandshakeException.class)
            .satisfies(e ->
                assertThat(((WebSocketHandshakeException) e).getResponse().statusCode())
                    .isEqualTo(503));
        first.close(); // abrupt: no close frame
        await(() -> s.runtime.wsSessions() == 1, "the aborted session counted out");
        try (WsClient third = new WsClient(s.port())) {
          third.sendText("{\"text\":\"hi\"}");
          assertThat(third.nextText()).contains("synthesis_start");
        }
      }
      await(() -> s.runtime.wsSessions() == 0, "every session counted out");
      s.awaitIdle();
    }
  }

  @Test
  void messages_sentFasterThanServed_areHeldByBackPressureNotAnsweredWithErrors() throws Exception {
    int messages = 3 * BidiSession.PENDING_MESSAGES;
    ScriptedEngine engine = new ScriptedEngine(2, 1); // each call waits for one allow()
    try (TestServer s = TestServer.start(engine);
        WsClient ws = new WsClient(s.port())) {
      for (int i = 0; i < messages; i++) {
        ws.sendText("{\"text\":\"m" + i + "\",\"request_id\":\"m" + i + "\"}");
      }
      engine.allow(messages);
      int completed = 0;
      int errors = 0;
      while (completed + errors < messages) {
        if (ws.next() instanceof String text) {
          completed += text.contains("synthesis_complete") ? 1 : 0;
          errors += text.contains("\"type\":\"error\"") ? 1 : 0;
        }
      }
      assertThat(errors).as("no session_busy errors").isZero();
      assertThat(completed).isEqualTo(messages);
      assertThat(engine.calls.get()).isEqualTo(messages);
    }
  }

  @Test
  void client_thatStopsReading_isClosedAndReleasesPermitSessionAndEngine() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1_000_000, 1);
    engine.allow(1_000_000);
    try (TestServer s = TestServer.start(engine, "--max-buffered-bytes", "65536")) {
      s.server.wsSendTimeout(Duration.ofSeconds(2));
      try (RawWs raw = new RawWs(s.port(), SpeechServer.BIDI_PATH)) {
        raw.sendText("{\"text\":\"never read\"}");
        s.awaitIdle(); // the engine was stopped and the permit released while nobody read
        await(() -> s.runtime.wsSessions() == 0, "the session counted out");
        assertThat(raw.drainUntilClosed()).as("the server ended the connection").isTrue();
      }
      assertThat(engine.cancelled.get()).isEqualTo(1);
      assertThat(engine.running.get()).isZero();
      assertThat(s.get("/metrics").body())
          .contains("speech_server_stream_failures_total{reason=\"client_too_slow\"} 1");
    }
  }

  @Test
  void tcp_droppedMidSynthesis_cancelsTheEngineAndCountsTheSessionOut() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1_000, 1);
    try (TestServer s = TestServer.start(engine)) {
      try (RawWs raw = new RawWs(s.port(), SpeechServer.BIDI_PATH)) {
        raw.sendText("{\"text\":\"dropped\"}");
        raw.readAtLeast(1_000); // synthesis_start and part of the first chunk: audio is flowing
      } // RST, no close frame
      await(() -> s.runtime.wsSessions() == 0, "the session counted out");
      engine.allow(1_000); // an engine nobody cancelled would now produce all 1000 chunks
      s.awaitIdle();
      assertThat(engine.cancelled.get()).isEqualTo(1);
    }
  }

  @Test
  void message_largerThanMaxBody_closesWith1009AndCountsTheSessionOut() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    try (TestServer s = TestServer.start(engine, "--max-body-bytes", "1024");
        WsClient ws = new WsClient(s.port())) {
      ws.sendText("{\"text\":\"" + "a".repeat(5000) + "\"}");
      assertThat(ws.nextText()).isEqualTo("closed:1009");
      await(() -> s.runtime.wsSessions() == 0, "the session counted out");
      assertThat(engine.calls.get()).isZero();
    }
  }

  @Test
  void badJson_answersAnErrorKeepsTheSessionAndReleasesEverythingOnClose() throws Exception {
    ScriptedEngine engine = new ScriptedEngine(1, 1);
    try (TestServer s = TestServer.start(engine)) {
      try (WsClient ws = new WsClient(s.port())) {
        ws.sendText("{not json");
        assertThat(ws.nextText()).contains("invalid_request");
        ws.sendBinary("\u0000\u0001");
        assertThat(ws.nextText()).contains("invalid_request");
        ws.sendText("{\"text\":\"still here\"}");
        assertThat(ws.nextText()).contains("synthesis_start");
      }
      s.awaitIdle();
      await(() -> s.runtime.wsSessions() == 0, "the session counted out");
    }
  }

  /** A bounded wait on a condition the server reaches by itself (no sleeping). */
  static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > until) {
        throw new AssertionError("not within 30 s: " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }
}
