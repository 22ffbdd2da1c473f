package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import org.junit.jupiter.api.Test;

class BidiInvokerTest {
  private static final SynthesisRequest HELLO =
      new SynthesisRequest("Hello there.", "af_heart", 1.0, true);

  @Test
  void invoke_errorWithStatus503_isRejectedAndTheSessionStaysOpen() throws Exception {
    try (InvokerRig c =
        InvokerRig.open(
            Transport.BIDI, FakeTtsServer.scripted(n -> n == 0 ? Reply.REJECT_503 : Reply.OK))) {
      Invocation rejected = c.invoke(HELLO);

      assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
      assertThat(rejected.status()).isEqualTo(503);
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(c.server.connections()).isEqualTo(1);
    }
  }

  @Test
  void invoke_sessionDropsMidStream_isServerErrorThenReconnects() throws Exception {
    try (InvokerRig c =
        InvokerRig.open(
            Transport.BIDI,
            FakeTtsServer.scripted(n -> n == 0 ? Reply.ABORT_AFTER_200 : Reply.OK))) {
      Invocation broken = c.invoke(HELLO);

      assertThat(broken.outcome()).isEqualTo(Outcome.SERVER_ERROR);
      assertThat(broken.error()).contains("mid-stream");
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(c.server.connections()).isEqualTo(2);
    }
  }
}
