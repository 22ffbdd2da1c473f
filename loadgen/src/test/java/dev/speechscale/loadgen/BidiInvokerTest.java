package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BidiInvokerTest {
  private static final SynthesisRequest HELLO =
      new SynthesisRequest("Hello there.", "af_heart", 1.0, true);

  @Test
  void invoke_synthesis_okWithEveryBinaryFrameCounted() throws Exception {
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri());
        Invoker.Connection c = invoker.connect()) {
      Invocation inv = c.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.OK);
      assertThat(inv.audioBytes())
          .isEqualTo((long) FakeTtsServer.PCM_CHUNK_BYTES * FakeTtsServer.CHUNKS);
      assertThat(inv.firstAudioNanos()).isBetween(inv.sentNanos(), inv.completedNanos());
    }
  }

  @Test
  void invoke_manyRequests_shareOneSession() throws Exception {
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri());
        Invoker.Connection c = invoker.connect()) {
      for (int i = 0; i < 5; i++) {
        assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      }
      assertThat(server.connections()).isEqualTo(1);
      assertThat(server.requests()).isEqualTo(5);
    }
  }

  @Test
  void invoke_errorWithStatus503_isRejectedAndTheSessionStaysOpen() throws Exception {
    try (FakeTtsServer server =
            new FakeTtsServer(
                1, Duration.ZERO, Duration.ZERO, n -> n == 0 ? Reply.REJECT_503 : Reply.OK);
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri());
        Invoker.Connection c = invoker.connect()) {
      Invocation rejected = c.invoke(HELLO);

      assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
      assertThat(rejected.status()).isEqualTo(503);
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(server.connections()).isEqualTo(1);
    }
  }

  @Test
  void invoke_errorWithStatus400_isClientError() throws Exception {
    try (FakeTtsServer server =
            new FakeTtsServer(1, Duration.ZERO, Duration.ZERO, n -> Reply.BAD_400);
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri());
        Invoker.Connection c = invoker.connect()) {
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.CLIENT_ERROR);
    }
  }

  @Test
  void invoke_engineErrorWithoutStatus_isServerError() throws Exception {
    try (FakeTtsServer server =
            new FakeTtsServer(1, Duration.ZERO, Duration.ZERO, n -> Reply.ERROR_500);
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri());
        Invoker.Connection c = invoker.connect()) {
      Invocation inv = c.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.SERVER_ERROR);
      assertThat(inv.error()).contains("engine_error");
    }
  }

  @Test
  void invoke_sessionDropsMidStream_isServerErrorThenReconnects() throws Exception {
    try (FakeTtsServer server =
            new FakeTtsServer(
                1, Duration.ZERO, Duration.ZERO, n -> n == 0 ? Reply.ABORT_AFTER_200 : Reply.OK);
        Invoker invoker = Targets.invoker(Transport.BIDI, server.baseUri());
        Invoker.Connection c = invoker.connect()) {
      Invocation broken = c.invoke(HELLO);

      assertThat(broken.outcome()).isEqualTo(Outcome.SERVER_ERROR);
      assertThat(broken.error()).contains("mid-stream");
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(server.connections()).isEqualTo(2);
    }
  }
}
