package dev.speechscale.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.Platforms;
import dev.speechscale.platform.Transport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Platforms are found by ServiceLoader; the CLI names no platform beyond its default. */
class PlatformChoiceTest {

  private static CliRun infra(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = SpeechInfra.run(args, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(code, out.toString(), err.toString());
  }

  @Test
  void providers_onTheClasspath_areLocalAndAwsWithTheirNaturalTransports() {
    assertThat(Platforms.names()).containsExactly("aws", "local");
    assertThat(Platforms.find("local").map(PlatformProvider::naturalTransport))
        .contains(Transport.HTTP_STREAM);
    assertThat(Platforms.find("aws").map(PlatformProvider::naturalTransport))
        .contains(Transport.RESPONSE_STREAM);
    assertThat(Platforms.find("k8s")).isEmpty();
  }

  @Test
  void typicalMetricPublicationDelay_perPlatform_isWhatReplayDefaultedToByName() {
    ChainOptions options = new ChainOptions();
    options.where = new PlatformChoice();
    options.where.platform = "local";
    assertThat(options.typicalMetricPublicationDelay()).isEqualTo(Duration.ZERO);
    options.where.platform = "aws";
    assertThat(options.typicalMetricPublicationDelay()).isEqualTo(Duration.ofSeconds(60));
    options.where.platform = "k8s"; // not on the classpath: opening it is what reports that
    assertThat(options.typicalMetricPublicationDelay()).isEqualTo(Duration.ZERO);
  }

  @Test
  void choices_listTheDefaultFirst() {
    assertThat(PlatformChoice.choices()).isEqualTo("local or aws");
  }

  @Test
  void infra_unknownPlatform_isAUsageErrorNamingTheChoices() {
    CliRun run = infra("status", "--model", "m", "--platform", "k8s");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).startsWith("error: --platform (k8s) must be local or aws\n");
  }

  @Test
  void synth_onTheLocalPlatform_isAUsageErrorThatSaysWhatToUse(@TempDir Path dir) {
    CliRun run =
        infra(
            "synth",
            "--model",
            "m",
            "--config",
            dir.resolve("endpoints.yaml").toString(),
            "--state-dir",
            dir.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            "error: synth is for --platform aws (the local platform has nothing to synthesize;"
                + " use speech-infra deploy)\n");
  }

  @Test
  void destroy_localNothingDeployed_saysSoThroughTheProvider(@TempDir Path dir) {
    CliRun run = infra("destroy", "--model", "m", "--state-dir", dir.toString());
    assertThat(run.exitCode()).isEqualTo(0);
    assertThat(run.out()).isEqualTo("nothing to destroy: speech-m is not deployed locally\n");
  }
}
