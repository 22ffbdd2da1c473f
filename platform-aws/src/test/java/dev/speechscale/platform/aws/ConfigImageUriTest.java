package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.PlatformException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigImageUriTest {
  private static final Path FILE = Path.of("endpoints.yaml");
  private static final String URI =
      "123456789012.dkr.ecr.eu-west-1.amazonaws.com/speech-server@sha256:" + "a".repeat(64);

  private static final String CONFIG =
      """
      # the team's endpoints
      models:
        flite:
          engine: flite
          instance_type: ml.c5.xlarge
          aws:
            image_uri: OLD   # pinned by bin/image push
            model_repository: example/none
            model_revision: 0123456789abcdef0123456789abcdef01234567
            quota_max_instances: 2
        kokoro:
          engine: kokoro
          instance_type: ml.g5.xlarge
          aws:
            model_repository: example/none   # weights
            model_revision: 0123456789abcdef0123456789abcdef01234567
            quota_max_instances: 2
      """;

  @Test
  void write_existingField_replacesOnlyItsValueAndKeepsTheComment() {
    String out = ConfigImageUri.write(FILE, CONFIG, "flite", "image_uri", URI);

    assertThat(out)
        .isEqualTo(CONFIG.replace("image_uri: OLD   # pinned", "image_uri: " + URI + "  # pinned"));
  }

  @Test
  void write_missingField_isAddedAsTheBlocksFirstLineAtItsIndent() {
    String out = ConfigImageUri.write(FILE, CONFIG, "kokoro", "gpu_image_uri", URI);

    assertThat(out)
        .isEqualTo(
            CONFIG.replace(
                "    aws:\n      model_repository: example/none   # weights",
                "    aws:\n      gpu_image_uri: "
                    + URI
                    + "\n      model_repository: example/none   # weights"));
  }

  @Test
  void write_noAwsBlock_namesTheFieldAndTheFix() {
    String config = "models:\n  flite:\n    engine: flite\n";

    assertThatThrownBy(() -> ConfigImageUri.write(FILE, config, "flite", "image_uri", URI))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("endpoints.yaml has no models.flite.aws block")
        .hasMessageContaining("add `aws:` under models.flite");
  }

  @Test
  void write_flowStyleAwsBlock_isRefusedRatherThanRewritten() {
    String config =
        "models:\n  flite:\n    engine: flite\n    aws: {image_uri: x, quota_max_instances: 2}\n";

    assertThatThrownBy(() -> ConfigImageUri.write(FILE, config, "flite", "image_uri", URI))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("models.flite.aws in flow style");
  }
}
