package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.PlatformException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The push's decisions and refusals, with podman and ECR's token faked. */
class ImagePushTest {
  private static final String DIGEST = "sha256:" + "b".repeat(64);
  private static final String CONFIG =
      """
      models:
        flite:
          engine: flite
          aws:
            image_uri: PENDING
            quota_max_instances: 2
      """;
  private static final RegistryToken TOKEN =
      new RegistryToken(
          URI.create("https://123456789012.dkr.ecr.us-east-1.amazonaws.com"),
          "AWS",
          "s3cret",
          Instant.EPOCH);

  @TempDir Path dir;

  private final List<List<String>> calls = new ArrayList<>();
  private final List<String> stdins = new ArrayList<>();
  private final ByteArrayOutputStream progress = new ByteArrayOutputStream();

  /** A podman whose image exists, whose login answers {@code loginExit} and whose push succeeds. */
  private ImagePush.Podman podman(boolean imageExists, int loginExit) {
    return (args, stdin) -> {
      calls.add(args);
      stdins.add(stdin);
      return switch (args.getFirst()) {
        case "image" -> new ImagePush.Podman.Outcome(imageExists ? 0 : 1, "");
        case "login" ->
            new ImagePush.Podman.Outcome(loginExit, loginExit == 0 ? "Login Succeeded!" : "401");
        case "push" -> {
          Path digestFile = Path.of(args.get(args.indexOf("--digestfile") + 1));
          Files.writeString(digestFile, DIGEST);
          yield new ImagePush.Podman.Outcome(0, "Writing manifest to image destination");
        }
        default -> throw new AssertionError(args);
      };
    };
  }

  private ImagePush.Result push(Path config, ImagePush.Podman podman) {
    return ImagePush.push(
        new ImagePush.Request(config, null, false, null),
        () -> TOKEN,
        "speech",
        podman,
        new PrintStream(progress, true, StandardCharsets.UTF_8));
  }

  @Test
  void push_builtImage_logsInWithThePasswordOnStdinPushesAndPinsTheDigest() throws Exception {
    Path config = Files.writeString(dir.resolve("endpoints.yaml"), CONFIG);

    ImagePush.Result r = push(config, podman(true, 0));

    String uri = "123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server@" + DIGEST;
    assertThat(r.digest()).isEqualTo(DIGEST);
    assertThat(r.imageUri()).isEqualTo(uri);
    assertThat(Files.readString(config)).isEqualTo(CONFIG.replace("PENDING", uri));
    assertThat(calls.get(1))
        .startsWith("login")
        .contains("--password-stdin", "AWS", "123456789012.dkr.ecr.us-east-1.amazonaws.com")
        .doesNotContain("s3cret", "--tls-verify=false");
    assertThat(stdins.get(1)).isEqualTo("s3cret");
    assertThat(calls.get(2))
        .startsWith("push")
        .endsWith(
            "localhost/speech-server:latest",
            "123456789012.dkr.ecr.us-east-1.amazonaws.com/speech-server:latest");
  }

  @Test
  void push_noImageBuilt_namesTheImageAndTheBuildCommandBeforeAnyTokenIsFetched() throws Exception {
    Path config = Files.writeString(dir.resolve("endpoints.yaml"), CONFIG);

    assertThatThrownBy(() ->
            ImagePush.push(
                new ImagePush.Request(config, null, true, null),
                () -> {
                  throw new AssertionError("no token before the image is known to exist");
                },
                "speech",
                podman(false, 0),
                System.err))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("no local image localhost/speech-server:gpu")
        .hasMessageContaining("bin/image build --gpu");
    assertThat(Files.readString(config)).isEqualTo(CONFIG);
  }

  @Test
  void push_tokenRefusedByTheRegistry_namesTheProfileAndSsoLogin() throws Exception {
    Path config = Files.writeString(dir.resolve("endpoints.yaml"), CONFIG);

    assertThatThrownBy(() -> push(config, podman(true, 1)))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("refused the ECR token of profile 'speech'")
        .hasMessageContaining("aws sso login --profile speech");
    assertThat(Files.readString(config)).isEqualTo(CONFIG);
  }

  @Test
  void push_configWithSeveralModelsAndNoModel_asksForModel() throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("endpoints.yaml"), CONFIG + "  espeak:\n    engine: espeak\n");

    assertThatThrownBy(() -> push(config, podman(true, 0)))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("has 2 models (espeak, flite)")
        .hasMessageContaining("--model NAME");
    assertThat(calls).isEmpty();
  }

  @Test
  void repository_configNamingAnotherRepositoryInTheTokensRegistry_keepsIt() {
    var model =
        dev.speechscale.artifacts.EndpointConfigFile.parse(
                Path.of("e.yaml"),
                CONFIG.replace(
                    "PENDING",
                    "123456789012.dkr.ecr.us-east-1.amazonaws.com/team/tts@sha256:"
                        + "c".repeat(64)))
            .model("flite");

    assertThat(ImagePush.repository(model, false, TOKEN)).isEqualTo("team/tts");
  }

  @Test
  void tag_ofLocalImages() {
    assertThat(ImagePush.tag("localhost/speech-server:gpu")).isEqualTo("gpu");
    assertThat(ImagePush.tag("localhost:5000/speech-server")).isEqualTo("latest");
  }

  @Test
  void decode_ecrToken_splitsAtTheFirstColonAndHidesThePassword() {
    String token =
        java.util.Base64.getEncoder().encodeToString("AWS:pa:ss".getBytes(StandardCharsets.UTF_8));

    RegistryToken t = RegistryToken.decode(token, "http://127.0.0.1:5000", Instant.EPOCH);

    assertThat(t.user()).isEqualTo("AWS");
    assertThat(t.password()).isEqualTo("pa:ss");
    assertThat(t.registry()).isEqualTo("127.0.0.1:5000");
    assertThat(t.tls()).isFalse();
    assertThat(t.toString()).doesNotContain("pa:ss");
  }
}
