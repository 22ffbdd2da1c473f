package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DeployedConfigTest {

  @ParameterizedTest
  @CsvSource({
    "ml.g5.xlarge,8b1b96bc4dc0b30ddd84d8fe37af7c490937333c44a9f8f7d77b918c3d7eaced,g5xlarge-8b1b96bc",
    "local.1cpu,sha256:ABCDEF0123456789,local1cpu-abcdef01",
    "local.2cpu,,local2cpu-nodigest",
    "ml.c7i.2xlarge,abc,c7i2xlarge-abc"
  })
  void slug_followsTheFamilyDigestRule(String type, String digest, String slug) {
    assertThat(new DeployedConfig(type, digest, Map.of()).slug()).isEqualTo(slug);
  }

  @Test
  void sameDeployment_missingFingerprint_neverPairs() {
    DeployedConfig a = new DeployedConfig("local.1cpu", "abc", Map.of());

    assertThat(DeployedConfig.sameDeployment(a, a)).isTrue();
    assertThat(DeployedConfig.sameDeployment(a, null)).isFalse();
    assertThat(DeployedConfig.sameDeployment(null, null)).isFalse();
    assertThat(
            DeployedConfig.sameDeployment(
                a, new DeployedConfig("local.1cpu", "abc", Map.of("X", "1"))))
        .isFalse();
  }

  @Test
  void fingerprints_mismatch_namesBothSlugs_andCanBeDowngraded() {
    DeployedConfig a = new DeployedConfig("local.1cpu", "aaaaaaaa11", Map.of());
    DeployedConfig b = new DeployedConfig("local.2cpu", "bbbbbbbb22", Map.of());

    Pairing.Result refused = Pairing.fingerprints("qmax", a, "ttotal", b, false);
    Pairing.Result allowed = Pairing.fingerprints("qmax", a, "ttotal", b, true);

    assertThat(refused.ok()).isFalse();
    assertThat(refused.refusal())
        .contains("local1cpu-aaaaaaaa")
        .contains("local2cpu-bbbbbbbb")
        .contains("--allow-config-mismatch");
    assertThat(allowed.ok()).isTrue();
    assertThat(allowed.warning()).contains("continuing because of --allow-config-mismatch");
  }
}
