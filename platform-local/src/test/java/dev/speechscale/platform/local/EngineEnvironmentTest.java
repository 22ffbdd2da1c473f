package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine a local endpoint serves is the config's, reaching each instance only through its
 * environment ({@code ENGINE} and the settings' variables), as it reaches a container on SageMaker.
 */
class EngineEnvironmentTest {
  @TempDir Path dir;

  @Test
  void command_namesNoEngineOrSetting() {
    var config =
        dev.speechscale.artifacts.EndpointConfigFile.parse(
                Path.of("e.yaml"),
                "models:\n  m: {engine: espeak, engine_settings: {segmentation: sentence}}\n")
            .model("m");

    assertThat(ServerBuild.current().command(config))
        .doesNotContain("--engine", "espeak", "--segmentation", "sentence");
    assertThat(config.engineEnvironment())
        .containsEntry("ENGINE", "espeak")
        .containsEntry("SEGMENTATION", "sentence");
  }

  @Test
  void deploy_espeakConfig_instanceServesEspeakAudio() throws Exception {
    try (LocalEndpoint e =
            LocalEndpoint.deploy(
                dir,
                "espeak",
                """
                models:
                  espeak:
                    engine: espeak
                    engine_settings: {segmentation: sentence}
                    instance_type: local.1cpu
                """,
                false);
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<byte[]> r =
          http.send(
              HttpRequest.newBuilder(URI.create(e.url() + "/invocations"))
                  .timeout(Duration.ofSeconds(60))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"text\":\"Which engine is this?\",\"stream\":false}"))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());

      assertThat(r.statusCode()).isEqualTo(200);
      int sampleRate = ByteBuffer.wrap(r.body()).order(ByteOrder.LITTLE_ENDIAN).getInt(24);
      assertThat(sampleRate).as("espeak-ng's rate; flite's would be 16000").isEqualTo(22_050);
    }
  }
}
