package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The router's retry rule (issue 11): a request goes to another instance only when the first did
 * not answer it at all (connection refused, closed before a response byte), never after a read
 * timeout (the instance may be synthesizing it); and a response without a length is read to the
 * connection's end instead of desynchronizing a kept-alive connection.
 */
class RouterRetryTest {
  private static final Duration SHORT_READ = Duration.ofSeconds(1);

  private static HttpResponse<byte[]> post(HttpClient http, int port) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/invocations"))
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"hello\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void invocations_instanceTimesOutOnAPooledConnection_answers502AndNeverResends()
      throws Exception {
    try (FakeInstance instance =
            new FakeInstance(FakeInstance.Reply.OK, FakeInstance.Reply.SILENT);
        HttpClient http = HttpClient.newHttpClient()) {
      Backends backends = new Backends();
      Backend b = instance.backend("i-slow", SHORT_READ);
      backends.add(b);
      try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats())) {
        int port = router.start();
        assertThat(post(http, port).statusCode()).isEqualTo(200); // leaves a pooled connection
        HttpResponse<byte[]> r = post(http, port);
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(new String(r.body(), java.nio.charset.StandardCharsets.UTF_8))
            .contains("instance_failed")
            .contains("i-slow");
        assertThat(instance.requests()).as("the timed-out request was sent once").isEqualTo(2);
        assertThat(router.retries()).isZero();
        LocalEndpoint.await("in-flight back to 0", Duration.ofSeconds(30), () -> b.inFlight() == 0);
      }
    }
  }

  @Test
  void invocations_pooledConnectionClosedWhileIdle_isSentAgainOnAFreshConnection()
      throws Exception {
    try (FakeInstance instance = new FakeInstance(FakeInstance.Reply.OK_THEN_CLOSE);
        HttpClient http = HttpClient.newHttpClient()) {
      Backends backends = new Backends();
      Backend b = instance.backend("i-a", SHORT_READ);
      backends.add(b);
      try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats())) {
        int port = router.start();
        assertThat(post(http, port).body()).isEqualTo(FakeInstance.BODY);
        HttpResponse<byte[]> second = post(http, port);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.body()).isEqualTo(FakeInstance.BODY);
        assertThat(instance.requests()).isEqualTo(2);
      }
    }
  }

  @Test
  void invocations_instanceRefusesTheConnection_goesToAnotherInstance() throws Exception {
    int deadPort;
    try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      deadPort = gone.getLocalPort();
    }
    try (FakeInstance alive = new FakeInstance();
        HttpClient http = HttpClient.newHttpClient()) {
      Backends backends = new Backends();
      Backend dead = new Backend("i-dead", "127.0.0.1", deadPort, SHORT_READ);
      Backend live = alive.backend("i-live", SHORT_READ);
      backends.add(dead); // picked first: both hold 0
      backends.add(live);
      try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats())) {
        int port = router.start();
        HttpResponse<byte[]> r = post(http, port);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("X-Speechscale-Instance")).hasValue("i-live");
        assertThat(router.retries()).isEqualTo(1);
        LocalEndpoint.await(
            "in-flight back to 0",
            Duration.ofSeconds(30),
            () -> dead.inFlight() == 0 && live.inFlight() == 0);
      }
    }
  }

  @Test
  void invocations_responseWithoutLength_isReadToTheConnectionsEndAndNotReused() throws Exception {
    try (FakeInstance instance =
            new FakeInstance(FakeInstance.Reply.NO_LENGTH, FakeInstance.Reply.OK);
        HttpClient http = HttpClient.newHttpClient()) {
      Backends backends = new Backends();
      backends.add(instance.backend("i-a", SHORT_READ));
      try (Router router = new Router("speech-t", "127.0.0.1", 0, backends, new RequestStats())) {
        int port = router.start();
        HttpResponse<byte[]> first = post(http, port);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).isEqualTo(FakeInstance.BODY);
        HttpResponse<byte[]> second = post(http, port);
        assertThat(second.body()).isEqualTo(FakeInstance.BODY);
        assertThat(instance.requests()).isEqualTo(2);
        assertThat(router.retries()).isZero();
      }
    }
  }
}
