package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.PlatformException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * synth offline into a temporary directory (as on a fresh clone, with no AWS settings at all), then
 * deploy and destroy up to the point where they would need AWS, over a recording command runner.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsDeployerTest {
  private Path work;
  private Path assembly;
  private AwsDeployer.Synthesis synthesis;
  private String synthOutput;

  /** Records commands instead of running them. */
  private static final class Recorder implements CommandRunner {
    final List<List<String>> commands = new ArrayList<>();
    final List<Map<String, String>> environments = new ArrayList<>();
    int exit;

    @Override
    public int run(List<String> command, Map<String, String> extra, Path dir, PrintStream out) {
      commands.add(command);
      environments.add(extra);
      return exit;
    }
  }

  @BeforeAll
  void synthesize(@TempDir Path dir) {
    work = dir;
    assembly = work.resolve("cdk.out");
    AwsDeployer offline =
        new AwsDeployer(
            (c, e, d, o) -> {
              throw new AssertionError("synth must not run any command: " + c);
            },
            Map.of(),
            work.resolve("empty-home"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    synthesis =
        offline.synth(
            AwsFixtures.config(),
            AwsFixtures.matchingPlan(),
            "plan-kokoro-82m.json",
            Map.of(),
            assembly);
    synthOutput = synthesis.describeSynth();
  }

  @Test
  void synth_noAwsSettings_writesTheCloudAssembly() {
    assertThat(assembly.resolve("manifest.json")).isRegularFile();
    for (String stack : synthesis.stackNames()) {
      assertThat(assembly.resolve(stack + ".template.json")).isRegularFile();
    }
    assertThat(synthesis.stackNames())
        .containsExactly(
            "speech-foundation", "speech-model-cache-kokoro-82m", "speech-endpoint-kokoro-82m");
    assertThat(synthOutput)
        .contains("synthesized 3 stacks into " + assembly)
        .contains("scaling: scaling attached behind plan-kokoro-82m.json");
  }

  @Test
  void synth_templatesOnDisk_carryTheEndpointAndItsScaling() throws IOException {
    String endpoint =
        Files.readString(assembly.resolve("speech-endpoint-kokoro-82m.template.json"));

    assertThat(endpoint)
        .contains("\"AWS::SageMaker::Endpoint\"")
        .contains("\"AWS::ApplicationAutoScaling::ScalableTarget\"")
        .contains("SageMakerVariantConcurrentRequestsPerModelHighResolution");
    assertThat(synthesis.stacks().get(2).ofType("AWS::SageMaker::Endpoint"))
        .extracting(StackSummary.Resource::name)
        .containsExactly("speech-kokoro-82m");
  }

  @Test
  void deploy_noCredentials_printsWhatItWouldCreateThenRefusesWithTheFix() {
    Recorder recorder = new Recorder();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AwsDeployer deployer = deployer(recorder, Map.of(), out);

    assertThatThrownBy(() -> deployer.deploy(synthesis))
        .isInstanceOf(PlatformException.class)
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isInstanceOf(PlatformException.Reason.MissingCredentials.class))
        .hasMessageContaining("no AWS credentials found")
        .hasMessageContaining("aws configure")
        .hasMessageContaining("Nothing was changed");
    assertThat(recorder.commands).isEmpty();
    assertThat(text(out))
        .contains(
            "deploy will create (or update, where they exist) 3 stacks in the account and region of your AWS credentials")
        .contains("speech-foundation")
        .contains("AWS::S3::Bucket")
        .contains("(retained on delete)")
        .contains("AWS::SageMaker::Endpoint")
        .contains("speech-kokoro-82m-scale-in")
        .contains("endpoint/speech-kokoro-82m/variant/AllTraffic")
        .contains("scaling: scaling attached behind plan-kokoro-82m.json")
        .contains("bootstrap");
  }

  @Test
  void deploy_withAProfile_runsTheCdkCliOnTheAssemblyWithoutMetadataProbing() throws IOException {
    Path home = work.resolve("home-with-profile");
    Files.createDirectories(home.resolve(".aws"));
    Files.writeString(home.resolve(".aws/config"), "[profile speech]\nregion = us-east-1\n");
    Recorder recorder = new Recorder();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AwsDeployer deployer =
        new AwsDeployer(recorder, Map.of("AWS_PROFILE", "speech"), home, print(out));

    deployer.deploy(synthesis);

    assertThat(recorder.commands)
        .containsExactly(
            List.of(
                "npx",
                "--yes",
                "aws-cdk@2",
                "deploy",
                "--app",
                assembly.toString(),
                "--require-approval",
                "never",
                "--progress",
                "events",
                "speech-foundation",
                "speech-model-cache-kokoro-82m",
                "speech-endpoint-kokoro-82m"));
    assertThat(recorder.environments.getFirst()).containsEntry("AWS_EC2_METADATA_DISABLED", "true");
    assertThat(text(out)).contains("credentials: profile speech (AWS_PROFILE)");
  }

  @Test
  void destroy_withoutFoundation_deletesEndpointThenCacheAndSaysWhatItKeeps() {
    Recorder recorder = new Recorder();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AwsDeployer deployer = deployer(recorder, keys(), out);

    deployer.destroy(synthesis, false);

    assertThat(recorder.commands.getFirst().subList(3, recorder.commands.getFirst().size()))
        .containsExactly(
            "destroy",
            "--app",
            assembly.toString(),
            "--force",
            "speech-endpoint-kokoro-82m",
            "speech-model-cache-kokoro-82m");
    assertThat(text(out))
        .contains("destroy will delete 2 stacks in the account and region of your AWS credentials")
        .contains("in this order: speech-endpoint-kokoro-82m, speech-model-cache-kokoro-82m\n")
        .contains("AWS::SageMaker::Endpoint")
        .contains("kept: stack speech-foundation (shared")
        .contains(
            "models/hexgrad/Kokoro-82M/" + AwsFixtures.REVISION + "/ (the bucket is retained)");
  }

  @Test
  void destroy_withFoundation_deletesItLastAndKeepsTheBucket() {
    Recorder recorder = new Recorder();
    ByteArrayOutputStream out = new ByteArrayOutputStream();

    deployer(recorder, keys(), out).destroy(synthesis, true);

    assertThat(recorder.commands.getFirst().getLast()).isEqualTo("speech-foundation");
    assertThat(text(out)).containsPattern("kept: AWS::S3::Bucket ModelBucket\\w+");
  }

  @Test
  void deploy_cdkCliFails_reportsItsExitCode() {
    Recorder recorder = new Recorder();
    recorder.exit = 1;

    assertThatThrownBy(
            () -> deployer(recorder, keys(), new ByteArrayOutputStream()).deploy(synthesis))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("`npx --yes aws-cdk@2 deploy` exited 1");
  }

  @Test
  void deploy_npxMissing_saysToInstallNode() {
    CommandRunner missing =
        (c, e, d, o) -> {
          throw new IOException("Cannot run program \"npx\": error=2, No such file or directory");
        };

    assertThatThrownBy(
            () -> deployer(missing, keys(), new ByteArrayOutputStream()).deploy(synthesis))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("install Node.js 20 or newer with npm");
  }

  @Test
  void synth_nodeMissing_saysToInstallNode() {
    java.io.UncheckedIOException jsii =
        new java.io.UncheckedIOException(
            new IOException(
                "Cannot run program \"node\": Exec failed, error: 2 (No such file or directory)"));

    assertThat(AwsDeployer.nodeMissing(jsii))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("`node` was not found on PATH")
        .hasMessageContaining("install Node.js 20 or newer");
    java.io.UncheckedIOException other =
        new java.io.UncheckedIOException(new IOException("disk full"));
    assertThat(AwsDeployer.nodeMissing(other)).isSameAs(other);
  }

  @Test
  void credentialSources_eachKind_isFoundWithoutAnyNetworkCall() throws IOException {
    Path none = work.resolve("no-home");
    Path withDefault = work.resolve("default-home");
    Files.createDirectories(withDefault.resolve(".aws"));
    Files.writeString(withDefault.resolve(".aws/credentials"), "[default]\n");

    assertThat(AwsCredentialSources.find(Map.of(), none)).isEmpty();
    assertThat(AwsCredentialSources.find(keys(), none))
        .containsExactly("environment (AWS_ACCESS_KEY_ID)");
    assertThat(AwsCredentialSources.find(Map.of(), withDefault))
        .hasSize(1)
        .first()
        .asString()
        .startsWith("default profile");
    assertThat(AwsCredentialSources.find(Map.of("AWS_PROFILE", "p"), none)).isEmpty();
    assertThat(
            AwsCredentialSources.find(
                Map.of("AWS_WEB_IDENTITY_TOKEN_FILE", "/t", "AWS_ROLE_ARN", "arn"), none))
        .containsExactly("web identity (AWS_WEB_IDENTITY_TOKEN_FILE)");
    assertThat(AwsCredentialSources.find(Map.of("SPEECHSCALE_USE_INSTANCE_ROLE", "true"), none))
        .containsExactly("EC2 instance role (SPEECHSCALE_USE_INSTANCE_ROLE=true)");
  }

  private AwsDeployer deployer(
      CommandRunner runner, Map<String, String> env, ByteArrayOutputStream out) {
    return new AwsDeployer(runner, env, work.resolve("empty-home"), print(out));
  }

  private static Map<String, String> keys() {
    return Map.of("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY", "secret");
  }

  private static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }

  private static String text(ByteArrayOutputStream out) {
    return out.toString(StandardCharsets.UTF_8);
  }
}
