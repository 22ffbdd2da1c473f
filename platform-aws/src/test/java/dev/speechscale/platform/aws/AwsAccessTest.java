package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.PlatformException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;

/**
 * Region and credentials as a user of the AWS CLI has them: SSO and assume-role profiles, the
 * profile's region, {@code AWS_DEFAULT_REGION}. Offline: the shared config is a temporary file, and
 * the clients point at the wire fake, which must see no request when credentials fail.
 */
class AwsAccessTest {
  private static final String CONFIG =
      """
      [default]
      region = ap-southeast-2

      [profile work]
      region = eu-west-1
      sso_session = speechscale-test
      sso_account_id = 123456789012
      sso_role_name = Measure

      [sso-session speechscale-test]
      sso_start_url = https://speechscale-test.invalid/start
      sso_region = eu-west-1
      sso_registration_scopes = sso:account:access

      [profile deployer]
      role_arn = arn:aws:iam::123456789012:role/speechscale-deployer
      source_profile = keyless

      [profile keyless]
      region = us-west-2
      """;

  @TempDir Path dir;
  private Supplier<ProfileFile> files;
  private WireAws aws;

  @BeforeEach
  void config() throws IOException {
    Path config = Files.writeString(dir.resolve("config"), CONFIG);
    ProfileFile file =
        ProfileFile.builder().content(config).type(ProfileFile.Type.CONFIGURATION).build();
    files = () -> file;
    aws = new WireAws(Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    aws.close();
  }

  @Test
  void region_noFlagNoEnvironment_isTheProfilesRegion() {
    assertThat(AwsAccess.region(null, "work", Map.of(), files)).isEqualTo("eu-west-1");
  }

  @Test
  void region_awsProfileVariable_choosesTheProfile() {
    assertThat(AwsAccess.region(null, null, Map.of("AWS_PROFILE", "keyless"), files))
        .isEqualTo("us-west-2");
    assertThat(AwsAccess.region(null, null, Map.of(), files)).isEqualTo("ap-southeast-2");
  }

  @Test
  void region_awsDefaultRegion_winsOverTheProfile() {
    assertThat(AwsAccess.region(null, "work", Map.of("AWS_DEFAULT_REGION", "sa-east-1"), files))
        .isEqualTo("sa-east-1");
  }

  @Test
  void region_awsRegion_winsOverAwsDefaultRegion() {
    var env = Map.of("AWS_REGION", "us-east-2", "AWS_DEFAULT_REGION", "sa-east-1");
    assertThat(AwsAccess.region(null, "work", env, files)).isEqualTo("us-east-2");
  }

  @Test
  void region_flag_winsOverEverything() {
    assertThat(AwsAccess.region("eu-north-1", "work", Map.of("AWS_REGION", "us-east-2"), files))
        .isEqualTo("eu-north-1");
  }

  @Test
  void region_none_isNullAndTheMessageNamesTheProfileAndEveryFix() {
    assertThat(AwsAccess.region(null, "deployer", Map.of(), files)).isNull();
    assertThat(AwsAccess.noRegion("deployer", Map.of()))
        .contains("--region", "AWS_REGION", "AWS_DEFAULT_REGION", "profile 'deployer'")
        .contains("aws configure set region");
  }

  @Test
  void credentials_ssoProfileWithoutSession_namesTheProfileAndTheLoginNotTheNetwork() {
    try (AwsPlatform p = platform("work")) {
      assertThatThrownBy(() -> p.describe("speech-kokoro-82m"))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("profile 'work'")
          .hasMessageContaining("aws sso login --profile work")
          .hasMessageNotContaining("network")
          .hasMessageNotContaining("class path")
          .satisfies(e ->
              assertThat(((PlatformException) e).reason())
                  .isInstanceOf(PlatformException.Reason.MissingCredentials.class));
    }
    assertThat(aws.served()).isEmpty();
  }

  @Test
  void credentials_assumeRoleProfileWithKeylessSource_namesBothProfilesAndTheFix() {
    try (AwsPlatform p = platform("deployer")) {
      assertThatThrownBy(() -> p.setDesiredInstances("speech-kokoro-82m", 2))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("profile 'deployer' assumes a role")
          .hasMessageContaining("aws configure --profile keyless")
          .hasMessageNotContaining("network")
          .satisfies(e ->
              assertThat(((PlatformException) e).reason())
                  .isInstanceOf(PlatformException.Reason.MissingCredentials.class));
    }
    assertThat(aws.served()).isEmpty();
  }

  @Test
  void credentials_unknownProfile_saysHowToCreateIt() {
    try (AwsPlatform p = platform("nobody")) {
      assertThatThrownBy(() -> p.describe("speech-kokoro-82m"))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("profile 'nobody' is not in ~/.aws/config")
          .hasMessageContaining("aws configure --profile nobody");
    }
  }

  private AwsPlatform platform(String profile) {
    return new AwsPlatform(
        AwsApis.sdk(
            Region.of(WireAws.REGION), AwsAccess.credentials(profile, Map.of(), files), aws.uri()),
        new AwsPlatform.Settings(WireAws.REGION, profile, aws.uri(), Duration.ofSeconds(60)),
        Clock.systemUTC());
  }
}
