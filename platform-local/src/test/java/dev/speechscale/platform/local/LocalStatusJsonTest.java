package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.PlatformSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code speech-infra status --json} on the local platform: one JSON object on one line carrying
 * what the text status prints, under the field names docs/speech-infra.md lists.
 */
class LocalStatusJsonTest {
  private static final String MODEL = "statusjson";
  private static final String ENDPOINT = "speech-" + MODEL;

  @TempDir Path dir;

  @Test
  void status_json_carriesTheTextStatusFactsUnderTheDocumentedNames() throws Exception {
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        """
        models:
          statusjson:
            engine: flite
            instance_type: local.1cpu
            min_instances: 1
            max_instances: 1
            ttfab_slo_ms: 1000
        """);
    Path root = dir.resolve("state");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    PlatformSettings settings = new PlatformSettings(root, null, null, null, null, null);
    try {
      assertThat(
              new LocalInfra(
                      settings,
                      MODEL,
                      new PrintStream(text, true, StandardCharsets.UTF_8),
                      System.err)
                  .deploy(config, null))
          .isZero();
      text.reset();
      LocalInfra textInfra =
          new LocalInfra(
              settings, MODEL, new PrintStream(text, true, StandardCharsets.UTF_8), System.err);
      LocalInfra jsonInfra =
          new LocalInfra(
              settings, MODEL, new PrintStream(json, true, StandardCharsets.UTF_8), System.err);

      assertThat(textInfra.status(false)).isZero();
      assertThat(jsonInfra.status(true)).isZero();

      String out = json.toString(StandardCharsets.UTF_8);
      assertThat(out.strip()).doesNotContain("\n");
      JsonNode o = LocalStatusJson.JSON.readTree(out);
      assertThat(o.get("platform").asString()).isEqualTo("local");
      assertThat(o.get("endpoint").asString()).isEqualTo(ENDPOINT);
      assertThat(o.get("status").asString()).isEqualTo("IN_SERVICE");
      assertThat(o.get("desired_instances").asInt()).isEqualTo(1);
      assertThat(o.get("in_service_instances").asInt()).isEqualTo(1);
      assertThat(o.get("instance_type").asString()).isEqualTo("local.1cpu");
      assertThat(o.get("engine").asString()).isEqualTo("flite");
      assertThat(o.get("supervisor").get("alive").asBoolean()).isTrue();
      assertThat(o.get("scaling").get("attached").asBoolean()).isFalse();
      assertThat(o.get("scaling").get("suspended").isNull()).isTrue();
      JsonNode instance = o.get("instances").get(0);
      String textOut = text.toString(StandardCharsets.UTF_8);
      assertThat(textOut)
          .contains(ENDPOINT + "  IN_SERVICE  desired 1, in service 1  (local.1cpu, engine flite)")
          .contains("router 127.0.0.1:" + o.get("supervisor").get("router_port").asInt())
          .contains("supervisor pid " + o.get("supervisor").get("pid").asLong())
          .contains(instance.get("id").asString())
          .contains(String.valueOf(instance.get("pid").asLong()))
          .contains(instance.get("phase").asString())
          .contains("none attached: " + o.get("scaling").get("reason").asString());

      // kill -9 the supervisor: exit 1, alive false, its orphaned instance stopped and named
      long supervisorPid = o.get("supervisor").get("pid").asLong();
      ProcessHandle supervisor = ProcessHandle.of(supervisorPid).orElseThrow();
      supervisor.destroyForcibly();
      supervisor.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
      json.reset();

      assertThat(jsonInfra.status(true)).isEqualTo(1);

      JsonNode dead = LocalStatusJson.JSON.readTree(json.toString(StandardCharsets.UTF_8));
      assertThat(dead.get("supervisor").get("alive").asBoolean()).isFalse();
      assertThat(dead.get("supervisor").get("orphans_stopped").get(0).asLong())
          .isEqualTo(instance.get("pid").asLong());
    } finally {
      new LocalDeployer(root, line -> {}).destroy(ENDPOINT);
    }
  }
}
