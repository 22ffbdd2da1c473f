package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invocation.Outcome;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.Test;

class HttpStreamInvokerTest {
  private static final SynthesisRequest HELLO = SynthesisRequest.streaming("Hello there.");

  @Test
  void invoke_503_isRejected() throws Exception {
    try (InvokerRig c =
        InvokerRig.open(Transport.HTTP_STREAM, FakeTtsServer.scripted(n -> Reply.REJECT_503))) {
      Invocation inv = c.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.REJECTED);
      assertThat(inv.status()).isEqualTo(503);
      assertThat(inv.error()).contains("queue_saturated");
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.REJECTED);
      assertThat(c.server.connections()).isEqualTo(1);
    }
  }

  @Test
  void invoke_streamAbortedAfter200_isServerErrorNotShortSuccess() throws Exception {
    try (InvokerRig c =
        InvokerRig.open(
            Transport.HTTP_STREAM, FakeTtsServer.scripted(n -> Reply.ABORT_AFTER_200))) {
      Invocation inv = c.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.SERVER_ERROR);
      assertThat(inv.status()).isEqualTo(200);
      assertThat(inv.audioBytes()).isEqualTo(FakeTtsServer.PCM_CHUNK_BYTES);
      assertThat(inv.error()).contains("without its terminating chunk");
    }
  }

  @Test
  void invoke_connectionCloseHeader_reconnectsForTheNextRequest() throws Exception {
    try (InvokerRig c =
        InvokerRig.open(Transport.HTTP_STREAM, FakeTtsServer.scripted(n -> Reply.OK_THEN_CLOSE))) {
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(c.invoke(HELLO).outcome()).isEqualTo(Outcome.OK);
      assertThat(c.server.connections()).isEqualTo(2);
    }
  }

  @Test
  void invoke_nothingListening_isTransportError() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      port = s.getLocalPort();
    }
    try (Invoker invoker =
            Targets.invoker(Transport.HTTP_STREAM, URI.create("http://127.0.0.1:" + port));
        Invoker.Connection c = invoker.connect()) {
      Invocation inv = c.invoke(HELLO);

      assertThat(inv.outcome()).isEqualTo(Outcome.TRANSPORT_ERROR);
      assertThat(inv.status()).isZero();
      assertThat(inv.error()).contains("127.0.0.1");
    }
  }

  @Test
  void create_httpsBase_refusedWithTheReason() {
    assertThatThrownBy(
            () -> Targets.invoker(Transport.HTTP_STREAM, URI.create("https://example.test:443")))
        .isInstanceOf(LoadgenException.class)
        .hasMessageContaining("must be http://")
        .hasMessageContaining("response-stream");
  }

  @Test
  void create_basePathPrefix_isKept() throws IOException {
    assertThat(Endpoints.path(URI.create("http://127.0.0.1:1/router/"), "/invocations"))
        .isEqualTo("/router/invocations");
  }
}
