package dev.speechscale.platform.aws;

import dev.speechscale.platform.PlatformException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.profiles.Profile;
import software.amazon.awssdk.profiles.ProfileFile;

/**
 * Where the control-plane clients' region and credentials come from, the way the AWS CLI and the
 * SDK find them, so that a user who ran {@code aws configure} or {@code aws sso login} needs no
 * flag.
 *
 * <ul>
 *   <li>Region: {@code --region}, else {@code AWS_REGION}, else {@code AWS_DEFAULT_REGION} (the
 *       CLI's name, which the SDK alone ignores), else the {@code region} of the profile in use in
 *       the shared config file. The EC2 metadata service is not asked: that is a network call, and
 *       a command on an instance can pass {@code --region}.
 *   <li>Credentials: the SDK's own providers, with its {@code sso}, {@code ssooidc} and {@code sts}
 *       modules on the class path, so SSO profiles ({@code sso_session} or {@code sso_start_url})
 *       and assume-role profiles ({@code role_arn} with {@code source_profile} or {@code
 *       credential_source}) work. A named profile uses that profile; otherwise the SDK's default
 *       chain (environment keys, {@code AWS_PROFILE} or {@code default}, web identity, container
 *       and instance credentials).
 *   <li>The profile in use: {@code --profile}, else {@code AWS_PROFILE}, else {@code default}.
 * </ul>
 *
 * A credential that cannot be loaded is a {@link PlatformException.Reason.MissingCredentials}
 * naming the profile and the command that fixes it ({@code aws sso login --profile NAME} for an SSO
 * profile), never a network failure: the SDK throws whatever its provider threw (an {@code
 * SdkClientException}, an {@code UncheckedIOException} for a missing SSO token cache, an {@code
 * IllegalStateException} for a source profile without keys), and only the provider knows it was
 * loading credentials.
 */
final class AwsAccess {
  private AwsAccess() {}

  /** The profile in use: the one given, else {@code AWS_PROFILE}, else {@code default}. */
  static String profileName(@Nullable String profile, Map<String, String> env) {
    if (profile != null && !profile.isBlank()) {
      return profile;
    }
    String fromEnv = env.get("AWS_PROFILE");
    return fromEnv != null && !fromEnv.isBlank() ? fromEnv : "default";
  }

  /**
   * The region, or {@code null} when none of the sources names one.
   *
   * @param explicit {@code --region}, or {@code null}
   * @param profile {@code --profile}, or {@code null}
   * @param env the process environment
   * @param files the shared config and credentials files (read only when the environment names no
   *     region)
   */
  static @Nullable String region(
      @Nullable String explicit,
      @Nullable String profile,
      Map<String, String> env,
      Supplier<ProfileFile> files) {
    if (explicit != null && !explicit.isBlank()) {
      return explicit;
    }
    for (String variable : new String[] {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
      String v = env.get(variable);
      if (v != null && !v.isBlank()) {
        return v.strip();
      }
    }
    return files
        .get()
        .profile(profileName(profile, env))
        .flatMap(p -> p.property("region"))
        .filter(AwsAccess::present)
        .map(String::strip)
        .orElse(null);
  }

  /** What to do when {@link #region} found none. */
  static String noRegion(@Nullable String profile, Map<String, String> env) {
    return "no AWS region: pass --region, set AWS_REGION or AWS_DEFAULT_REGION, or add `region ="
        + " us-east-1` (your region) to profile '"
        + profileName(profile, env)
        + "' in ~/.aws/config (`aws configure set region us-east-1 --profile "
        + profileName(profile, env)
        + "`)";
  }

  /**
   * The credentials of the control-plane clients: the named profile's, else the SDK's default
   * chain; failures become {@link PlatformException.Reason.MissingCredentials} naming the profile
   * and the fix.
   */
  static AwsCredentialsProvider credentials(
      @Nullable String profile, Map<String, String> env, Supplier<ProfileFile> files) {
    String name = profileName(profile, env);
    AwsCredentialsProvider sdk =
        present(profile)
            ? ProfileCredentialsProvider.builder().profileFile(files).profileName(name).build()
            : DefaultCredentialsProvider.builder().profileFile(files).profileName(name).build();
    return new Named(sdk, name, files);
  }

  /** The SDK's provider, its failures named. */
  private record Named(AwsCredentialsProvider sdk, String profile, Supplier<ProfileFile> files)
      implements AwsCredentialsProvider {
    @Override
    public AwsCredentials resolveCredentials() {
      try {
        return sdk.resolveCredentials();
      } catch (RuntimeException e) {
        throw new PlatformException(
            new PlatformException.Reason.MissingCredentials(
                "could not load AWS credentials for profile '"
                    + profile
                    + "' ("
                    + e.getMessage()
                    + "); "
                    + fix(profile, files)),
            e);
      }
    }
  }

  /** The command that fixes a profile's credentials, by the kind of profile it is. */
  static String fix(String profile, Supplier<ProfileFile> files) {
    Optional<Profile> p;
    try {
      p = files.get().profile(profile);
    } catch (RuntimeException e) {
      return "the shared AWS config could not be read ("
          + e.getMessage()
          + "); correct ~/.aws/config and run the command again";
    }
    if (p.isEmpty()) {
      return "profile '"
          + profile
          + "' is not in ~/.aws/config or ~/.aws/credentials: create it with `aws configure"
          + " --profile "
          + profile
          + "` (or `aws configure sso --profile "
          + profile
          + "`), or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, then run the command again";
    }
    if (p.get().property("sso_session").isPresent()
        || p.get().property("sso_start_url").isPresent()) {
      return "profile '"
          + profile
          + "' signs in through AWS IAM Identity Center (SSO) and has no valid session: run `aws sso"
          + " login --profile "
          + profile
          + "` and run the command again";
    }
    Optional<String> source = p.get().property("source_profile");
    if (p.get().property("role_arn").isPresent()) {
      return "profile '"
          + profile
          + "' assumes a role"
          + source.map(s -> " with the credentials of profile '" + s + "'").orElse("")
          + ", and those could not be loaded or the role could not be assumed: "
          + source
              .map(s ->
                  "give profile '"
                      + s
                      + "' credentials (`aws configure --profile "
                      + s
                      + "`, or `aws sso login --profile "
                      + s
                      + "` if it is an SSO profile)")
              .orElse("check its credential_source")
          + " and that it may call sts:AssumeRole on the role_arn, then run the command again";
    }
    return "profile '"
        + profile
        + "' has no usable keys: run `aws configure --profile "
        + profile
        + "` (or `aws sso login --profile "
        + profile
        + "` for an SSO profile) and run the command again";
  }

  private static boolean present(@Nullable String s) {
    return s != null && !s.isBlank();
  }
}
