package dev.speechscale.platform.aws;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds where AWS credentials would come from, without calling AWS and without probing the EC2
 * instance metadata address: environment keys, a named or default profile in the shared files, web
 * identity, container credentials — or an explicit opt-in to an instance role ({@value
 * #INSTANCE_ROLE}{@code =true}), since detecting one would mean a network call.
 */
public final class AwsCredentialSources {
  /** Set to {@code true} to deploy with the EC2 instance role of this machine. */
  public static final String INSTANCE_ROLE = "SPEECHSCALE_USE_INSTANCE_ROLE";

  private AwsCredentialSources() {}

  /**
   * The sources found, most specific first; empty when there are none.
   *
   * @param env the process environment
   * @param home the user's home directory (for {@code ~/.aws/credentials} and {@code config})
   */
  public static List<String> find(Map<String, String> env, Path home) {
    List<String> found = new ArrayList<>();
    if (present(env, "AWS_ACCESS_KEY_ID") && present(env, "AWS_SECRET_ACCESS_KEY")) {
      found.add("environment (AWS_ACCESS_KEY_ID)");
    }
    Path credentials =
        present(env, "AWS_SHARED_CREDENTIALS_FILE")
            ? Path.of(env.get("AWS_SHARED_CREDENTIALS_FILE"))
            : home.resolve(".aws/credentials");
    Path config =
        present(env, "AWS_CONFIG_FILE")
            ? Path.of(env.get("AWS_CONFIG_FILE"))
            : home.resolve(".aws/config");
    String profile =
        present(env, "AWS_PROFILE") ? env.get("AWS_PROFILE") : env.get("AWS_DEFAULT_PROFILE");
    if (profile != null && !profile.isBlank()) {
      if (Files.isRegularFile(credentials) || Files.isRegularFile(config)) {
        found.add("profile " + profile + " (AWS_PROFILE)");
      }
    } else if (Files.isRegularFile(credentials) || Files.isRegularFile(config)) {
      found.add(
          "default profile (" + (Files.isRegularFile(credentials) ? credentials : config) + ")");
    }
    if (present(env, "AWS_WEB_IDENTITY_TOKEN_FILE") && present(env, "AWS_ROLE_ARN")) {
      found.add("web identity (AWS_WEB_IDENTITY_TOKEN_FILE)");
    }
    if (present(env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")
        || present(env, "AWS_CONTAINER_CREDENTIALS_FULL_URI")) {
      found.add("container credentials (AWS_CONTAINER_CREDENTIALS_*)");
    }
    if ("true".equalsIgnoreCase(env.get(INSTANCE_ROLE))) {
      found.add("EC2 instance role (" + INSTANCE_ROLE + "=true)");
    }
    return List.copyOf(found);
  }

  /** What to do when {@link #find} found nothing. */
  public static String fix() {
    return "no AWS credentials found (looked for AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE,"
        + " ~/.aws/credentials, ~/.aws/config, web identity and container credentials). Run `aws"
        + " configure` (or `aws sso login --profile NAME` and export AWS_PROFILE=NAME), or set "
        + INSTANCE_ROLE
        + "=true on an EC2 instance with a role, then run the command again";
  }

  private static boolean present(Map<String, String> env, String key) {
    String v = env.get(key);
    return v != null && !v.isBlank();
  }
}
