package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.local.LocalState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command lines the seed documents print (the published tool's, minus {@code uv run}) parse
 * here to the same meaning, and the ones that need no endpoint run.
 */
class SeedCommandLinesTest {
  private static final String CONFIG =
      "models:\n"
          + "  flite:\n    engine: flite\n    instance_type: local.1cpu\n    min_instances: 1\n"
          + "    max_instances: 2\n    ttfab_slo_ms: 1000\n    queue_max_depth: 0\n"
          + "  espeak:\n    engine: espeak\n    instance_type: local.1cpu\n    min_instances: 1\n"
          + "    max_instances: 2\n    ttfab_slo_ms: 500\n    queue_max_depth: 0\n";

  @TempDir Path dir;

  private static <T> T parsed(Object root, Class<T> type, String... args) {
    CommandLine cl = Cli.commandLine(root);
    CommandLine.ParseResult r = cl.parseArgs(args);
    while (r.hasSubcommand()) {
      r = r.subcommand();
    }
    return type.cast(r.commandSpec().userObject());
  }

  @Test
  void thaw_endpointFlag_namesTheModel() {
    ThawCommand thaw =
        parsed(new TtsBench(), ThawCommand.class, "thaw", "--endpoint", "speech-kokoro-82m");

    assertThat(thaw.common.model).isEqualTo("kokoro-82m");
    assertThat(thaw.common.endpoint()).isEqualTo("speech-kokoro-82m");
  }

  @Test
  void deploy_positionalModel_namesTheModel() {
    InfraDeploy deploy = parsed(new SpeechInfra(), InfraDeploy.class, "deploy", "kokoro-82m");

    assertThat(deploy.common.model).isEqualTo("kokoro-82m");
    assertThat(deploy.config.file).isEqualTo(Path.of("endpoints.yaml"));
  }

  @Test
  void destroy_positionalModel_namesTheModel() {
    InfraDestroy destroy = parsed(new SpeechInfra(), InfraDestroy.class, "destroy", "kokoro-82m");

    assertThat(destroy.common.model).isEqualTo("kokoro-82m");
  }

  @Test
  void chain_seedLines_parse() {
    assertThat(
            parsed(new TtsBench(), QmaxCommand.class, "qmax", "--model", "kokoro-82m", "--dry-run")
                .dry
                .dryRun)
        .isTrue();
    assertThat(
            parsed(
                    new TtsBench(),
                    TtotalCommand.class,
                    "ttotal",
                    "--model",
                    "kokoro-82m",
                    "--qmax",
                    "q.json")
                .qmax
                .file)
        .isEqualTo(Path.of("q.json"));
    assertThat(
            parsed(
                    new TtsBench(),
                    ValidateCommand.class,
                    "validate",
                    "--model",
                    "kokoro-82m",
                    "--plan",
                    "p.json")
                .plan
                .file)
        .isEqualTo(Path.of("p.json"));
    assertThat(parsed(new TtsBench(), DriftCommand.class, "drift").common.model).isNull();
  }

  @Test
  void noModel_isAUsageErrorNamingBothSpellings() {
    CliRun run = CliRun.of(new TtsBench(), "thaw");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "error: give the model: --model NAME (the endpoint is speech-NAME) or --endpoint"
                + " speech-NAME");
  }

  @Test
  void deploy_noModel_isAUsageErrorNamingThePositional() {
    CliRun run = CliRun.of(new SpeechInfra(), "deploy");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "error: give the model: speech-infra deploy MODEL (or --model NAME); the endpoint is"
                + " speech-MODEL");
  }

  @Test
  void thaw_endpointWithoutPrefix_isAUsageError() {
    CliRun run = CliRun.of(new TtsBench(), "thaw", "--endpoint", "kokoro-82m");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("--endpoint (kokoro-82m) must be speech-<model>, e.g. speech-kokoro-82m");
  }

  @Test
  void deploy_positionalAndModelDisagree_isAUsageError() {
    CliRun run = CliRun.of(new SpeechInfra(), "deploy", "--model", "a", "b");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("MODEL (b) and --model (a) name different models");
  }

  @Test
  void drift_noModel_checksEveryEndpointInTheConfigThenScansForOrphans() throws IOException {
    Path config = Files.writeString(dir.resolve("endpoints.yaml"), CONFIG);
    Path state = dir.resolve("state");

    CliRun run =
        CliRun.of(
            new TtsBench(),
            "drift",
            "--config",
            config.toString(),
            "--state-dir",
            state.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("== speech-flite (flite)")
        .contains("== speech-espeak (espeak)")
        .contains("WARN  endpoint             not deployed: nothing to compare")
        .contains("== orphaned scaling (local)")
        .contains("none: every scalable target, policy and alarm belongs to an endpoint")
        .contains("drift: 2 endpoint(s) in " + config + ", 0 with errors; no orphaned scaling");
  }

  @Test
  void drift_leftoverScaling_isAnErrorNamingItAndExits1() throws IOException {
    Path config = Files.writeString(dir.resolve("endpoints.yaml"), CONFIG);
    Path state = dir.resolve("state");
    leftover(state, "old");

    CliRun run =
        CliRun.of(
            new TtsBench(),
            "drift",
            "--config",
            config.toString(),
            "--state-dir",
            state.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out())
        .contains(
            "ERROR scalable target      endpoint/speech-old/variant/AllTraffic of speech-old:")
        .contains("ERROR alarm                speech-old-scale-in of speech-old")
        .contains("orphaned scaling found");
  }

  @Test
  void drift_orphansAlone_needsNoConfig() throws IOException {
    Path state = dir.resolve("state");
    leftover(state, "old");

    CliRun run =
        CliRun.of(
            new TtsBench(),
            "drift",
            "--orphans",
            "--config",
            dir.resolve("absent.yaml").toString(),
            "--state-dir",
            state.toString());

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).startsWith("== orphaned scaling (local)\n").doesNotContain("== speech-");
  }

  @Test
  void drift_noModelWithJson_isAUsageError() {
    CliRun run = CliRun.of(new TtsBench(), "drift", "--json");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--json needs --model NAME");
  }

  /** A local endpoint whose record attaches scaling and whose supervisor is gone. */
  private static void leftover(Path state, String model) throws IOException {
    String endpoint = "speech-" + model;
    Path file = state.resolve(endpoint).resolve("endpoint.json");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        dev.speechscale.artifacts.ArtifactCodec.toJson(
            new LocalState.EndpointRecord(
                endpoint,
                EndpointConfigFile.parse(
                        Path.of("endpoints.yaml"), CONFIG.replace("flite:", model + ":"))
                    .model(model),
                "endpoints.yaml",
                new LocalState.ScalingRecord(true, "plan matched", "plan-" + model + ".json"),
                "sha256:00",
                List.of("true"),
                0,
                null,
                0,
                0,
                Instant.parse("2026-12-01T00:00:00Z"))));
  }
}
