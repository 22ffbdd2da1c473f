package dev.speechscale.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The real entry point as a supervisor sees it: a separate process started with {@code --port 0}
 * prints the listening line and the four stage markers in order, answers /ping, and drains and
 * exits 0 on SIGTERM (a clean stop, not the JVM's 143).
 */
class MainProcessTest {
  private static final Pattern MARKER =
      Pattern.compile(
          "=== STAGE (framework_init|weights_ready|warmup_done|ready) t=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z elapsed_s=\\d+\\.\\d{3} ===");

  @Test
  void serve_espeakOnPortZero_printsPortAndMarkersThenStopsOnSigterm() throws Exception {
    double epoch = System.currentTimeMillis() / 1000.0 - 1.0;
    ProcessBuilder builder = MainProcess.serve("--engine", "espeak", "--port", "0");
    builder.environment().put("CONTAINER_START_EPOCH", Double.toString(epoch));
    builder.environment().put("MAX_QUEUE_DEPTH", "3");
    Process process = builder.start();
    List<String> lines = new ArrayList<>();
    try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        HttpClient http = HttpClient.newHttpClient()) {
      int port = -1;
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
        if (line.startsWith(SpeechServer.LISTENING)) {
          port = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
        }
        if (line.startsWith("=== STAGE ready ")) {
          break;
        }
      }
      assertThat(port).as("listening line in %s", lines).isPositive();
      List<String> markers = lines.stream().filter(l -> l.startsWith("=== STAGE")).toList();
      assertThat(markers).hasSize(4).allMatch(l -> MARKER.matcher(l).matches());
      assertThat(markers.get(0)).contains("framework_init");
      assertThat(markers.get(1)).contains("weights_ready");
      assertThat(markers.get(2)).contains("warmup_done");
      assertThat(markers.get(3)).contains("ready");
      double elapsed =
          Double.parseDouble(markers.get(0).replaceAll(".*elapsed_s=([0-9.]+) ===", "$1"));
      assertThat(elapsed).isGreaterThanOrEqualTo(1.0); // counted from CONTAINER_START_EPOCH

      URI base = URI.create("http://127.0.0.1:" + port);
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("/ping")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .statusCode())
          .isEqualTo(200);
      assertThat(
              http.send(
                      HttpRequest.newBuilder(base.resolve("/stats")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body())
          .contains("\"max_queue_depth\":3")
          .contains("\"engine\":\"espeak\"");

      process.toHandle().destroy(); // SIGTERM, leaving our end of stdout open
      String rest = String.join("\n", out.lines().toList()); // until the process closes stdout
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(rest).contains("speech-server stopped");
      assertThat(process.exitValue()).as("exit code after a drained stop on SIGTERM").isZero();
    } finally {
      process.destroyForcibly();
    }
  }
}
