package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What both loadgen transports (a keep-alive HTTP stream and a WebSocket session) must do alike;
 * what differs between them stays in {@link HttpStreamInvokerTest} and {@link BidiInvokerTest}.
 */
class InvokerTransportsTest {
  private static final SynthesisRequest HELLO =
      new SynthesisRequest("Hello there.", "af_heart", 1.0, true);

  @ParameterizedTest
  @EnumSource(names = {"HTTP_STREAM", "BIDI"})
  void invoke_synthesis_okWithEveryAudioByteCountedAfterTheHeader(Transport transport)
      throws Exception {
    try (InvokerRig rig = InvokerRig.open(transport, FakeTtsServer.fast())) {
      Invocation inv = rig.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.OK);
      assertThat(inv.status()).isEqualTo(200);
      assertThat(inv.audioBytes())
          .isEqualTo((long) FakeTtsServer.PCM_CHUNK_BYTES * FakeTtsServer.CHUNKS);
      assertThat(inv.firstAudioNanos()).isBetween(inv.sentNanos(), inv.completedNanos());
      assertThat(inv.error()).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"HTTP_STREAM", "BIDI"})
  void invoke_manyRequests_shareOneConnection(Transport transport) throws Exception {
    try (InvokerRig rig = InvokerRig.open(transport, FakeTtsServer.fast())) {
      for (int i = 0; i < 5; i++) {
        assertThat(rig.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      }
      assertThat(rig.server.connections()).isEqualTo(1);
      assertThat(rig.server.requests()).isEqualTo(5);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"HTTP_STREAM", "BIDI"})
  void invoke_serverClosedIdleConnection_resendsOnAFreshOne(Transport transport) throws Exception {
    try (InvokerRig rig = InvokerRig.open(transport, FakeTtsServer.fast())) {
      assertThat(rig.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      rig.server.dropConnections();

      assertThat(rig.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(rig.server.connections()).isEqualTo(2);
    }
  }

  @ParameterizedTest
  @EnumSource(names = {"HTTP_STREAM", "BIDI"})
  void invoke_slowerThanTheTimeout_isTransportError(Transport transport) throws Exception {
    try (InvokerRig rig =
        InvokerRig.open(
            transport,
            new FakeTtsServer(1, Duration.ofSeconds(2), Duration.ZERO, n -> Reply.OK),
            Duration.ofMillis(100))) {
      Invocation inv = rig.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.TRANSPORT_ERROR);
      assertThat(inv.error()).contains("timed out");
    }
  }

  @ParameterizedTest
  @CsvSource({
    "HTTP_STREAM, BAD_400, CLIENT_ERROR, HTTP 400;invalid_request",
    "BIDI, BAD_400, CLIENT_ERROR, invalid_request",
    "HTTP_STREAM, ERROR_500, SERVER_ERROR, synthesis_failed",
    "BIDI, ERROR_500, SERVER_ERROR, engine_error"
  })
  void invoke_errorReply_isClassifiedAndNamed(
      Transport transport, Reply reply, Outcome outcome, String named) throws Exception {
    try (InvokerRig rig = InvokerRig.open(transport, FakeTtsServer.scripted(n -> reply))) {
      Invocation inv = rig.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(outcome);
      assertThat(inv.error()).contains(named.split(";"));
    }
  }
}
