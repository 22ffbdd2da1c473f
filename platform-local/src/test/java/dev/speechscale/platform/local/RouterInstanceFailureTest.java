package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * An instance that dies after its response head but before any body byte (kill -9 under load): the
 * router has committed nothing yet, so it must answer the 502 {@code instance_failed} it gives for
 * every other instance failure — not Jetty's generic 500 page (issue 11: FaultTest once saw a 500
 * with a 537-byte body).
 */
class RouterInstanceFailureTest {

  /** Reads one request (head and Content-Length body), answers a 200 head only, then closes. */
  private static Thread dyingInstance(ServerSocket listener) {
    return Thread.ofPlatform()
        .daemon(true)
        .start(() -> {
          try (Socket s = listener.accept()) {
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
              int b = in.read();
              if (b < 0) {
                return;
              }
              head.write(b);
            }
            String h = head.toString(StandardCharsets.US_ASCII).toLowerCase(java.util.Locale.ROOT);
            int at = h.indexOf("content-length:");
            int length = Integer.parseInt(h.substring(at + 15, h.indexOf("\r\n", at)).trim());
            in.readNBytes(length);
            OutputStream out = s.getOutputStream();
            out.write(
                ("HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          } // the instance dies here: its socket closes with no body byte sent
        });
  }

  /**
   * Posts a request through a router whose only instance dies after its response head, waits
   * (bounded) until the router has released the instance and the instance thread ended, and returns
   * the router's answer.
   */
  private static HttpResponse<String> postToADyingInstance(String path) throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread instance = dyingInstance(listener);
      Backends backends = new Backends();
      Backend victim = new Backend("i-victim", "127.0.0.1", listener.getLocalPort());
      backends.add(victim);
      HttpResponse<String> r;
      try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats());
          HttpClient http = HttpClient.newHttpClient()) {
        int port = router.start();
        r =
            http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"hello\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        // the router releases the instance just after its answer left: wait for it, bounded
        LocalEndpoint.await(
            "the instance's in-flight count back to 0",
            Duration.ofSeconds(10),
            () -> victim.inFlight() == 0);
      }
      assertThat(instance.join(Duration.ofSeconds(10))).isTrue();
      return r;
    }
  }

  @Test
  void invocations_instanceDiesAfterItsResponseHead_answers502InstanceFailedAndReleases()
      throws Exception {
    HttpResponse<String> r = postToADyingInstance("/invocations");

    assertThat(r.statusCode()).isEqualTo(502);
    assertThat(r.body()).contains("\"error\":\"instance_failed\"").contains("i-victim");
  }

  @Test
  void runtimeInvocations_instanceDiesAfterItsResponseHead_answersInternalFailureAndReleases()
      throws Exception {
    HttpResponse<String> r =
        postToADyingInstance("/endpoints/speech-t/invocations-response-stream");

    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.headers().firstValue("x-amzn-ErrorType")).hasValue("InternalFailure");
    assertThat(r.body()).contains("i-victim");
  }
}
