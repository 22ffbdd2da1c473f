package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The supervisor's control API takes orders only from the endpoint's owner (issue 11): anyone else
 * on the machine, a browser's cross-site form post and a DNS-rebinding page are refused, and the
 * state that names the port and holds the secret is readable by the owner only.
 */
class ControlPlaneLockTest {
  private static final String ONE =
      """
      models:
        locked: {engine: flite, instance_type: local.500mcpu, min_instances: 1, max_instances: 1}
      """;

  @TempDir Path dir;

  /** Sends raw bytes (any Host, any headers) and returns the status code. */
  private static int raw(int port, String request) throws Exception {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String line = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      return Integer.parseInt(line.substring(9, 12));
    }
  }

  private static String post(int port, String host, String type, String secret, String body) {
    return "POST /shutdown HTTP/1.1\r\nHost: "
        + host
        + "\r\n"
        + (type == null ? "" : "Content-Type: " + type + "\r\n")
        + (secret == null ? "" : ControlServer.SECRET_HEADER + ": " + secret + "\r\n")
        + "Content-Length: "
        + body.length()
        + "\r\nConnection: close\r\n\r\n"
        + body;
  }

  @Test
  void shutdown_withoutSecretOrAsFormOrFromAnotherHost_isRefusedAndTheEndpointKeepsRunning()
      throws Exception {
    try (LocalEndpoint e = LocalEndpoint.deploy(dir, "locked", ONE, false)) {
      Path state = LocalState.endpointDir(e.root, e.endpoint());
      int port = new ControlClient(e.root).record(e.endpoint()).controlPort();
      String secret = Files.readString(LocalState.secretFile(state)).strip();
      String local = "127.0.0.1:" + port;

      assertThat(raw(port, post(port, local, "application/json", null, "{}")))
          .as("no secret: any local user")
          .isEqualTo(403);
      assertThat(raw(port, post(port, local, "application/json", "0".repeat(64), "{}")))
          .as("a wrong secret")
          .isEqualTo(403);
      assertThat(raw(port, post(port, local, "application/x-www-form-urlencoded", secret, "a=b")))
          .as("a form post")
          .isEqualTo(415);
      assertThat(raw(port, post(port, "evil.example:" + port, "application/json", secret, "{}")))
          .as("a DNS-rebinding page")
          .isEqualTo(403);
      assertThat(
              raw(port, "GET /status HTTP/1.1\r\nHost: " + local + "\r\nConnection: close\r\n\r\n"))
          .as("status without the secret")
          .isEqualTo(403);

      assertThat(e.platform.describe(e.endpoint()).currentInstances())
          .as("the endpoint still runs, and its owner still reaches it")
          .isEqualTo(1);
      for (Path file :
          new Path[] {
            LocalState.endpointFile(state),
            LocalState.statusFile(state),
            LocalState.secretFile(state)
          }) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
            .as(file.getFileName().toString())
            .isEqualTo("rw-------");
      }
    }
  }
}
