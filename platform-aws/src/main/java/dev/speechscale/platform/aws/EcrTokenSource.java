package dev.speechscale.platform.aws;

import dev.speechscale.platform.PlatformException;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.ecr.model.AuthorizationData;
import software.amazon.awssdk.services.ecr.model.GetAuthorizationTokenResponse;

/**
 * Fetches a registry login from ECR with the real SDK client: {@code GetAuthorizationToken}
 * (https://docs.aws.amazon.com/AmazonECR/latest/APIReference/API_GetAuthorizationToken.html), the
 * call behind {@code aws ecr get-login-password}, with the region and credentials every other
 * command uses ({@link AwsAccess}) and the control-plane retry of {@link AwsApis#controlPlane()}.
 *
 * @param region the region whose registry to log in to
 * @param profile the credentials profile, or {@code null} for the SDK's default chain
 * @param endpointUrl where to send the call instead of ECR ({@code --endpoint-url}: the local
 *     platform's AWS-shaped control plane), or {@code null}
 */
record EcrTokenSource(String region, @Nullable String profile, @Nullable URI endpointUrl)
    implements Supplier<RegistryToken> {

  @Override
  public RegistryToken get() {
    Map<String, String> env = System.getenv();
    Supplier<ProfileFile> files = ProfileFile::defaultProfileFile;
    String profileName = AwsAccess.profileName(profile, env);
    AwsCredentialsProvider credentials =
        profile == null && endpointUrl != null && AwsPlatform.isLoopback(endpointUrl)
            ? StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))
            : AwsAccess.credentials(profile, env, files);
    try (EcrClient ecr =
        AwsApis.client(EcrClient.builder(), Region.of(region), credentials, endpointUrl)) {
      GetAuthorizationTokenResponse r = ecr.getAuthorizationToken();
      if (!r.hasAuthorizationData() || r.authorizationData().isEmpty()) {
        throw new PlatformException(
            new PlatformException.Reason.Unavailable(
                "ECR's GetAuthorizationToken answered no authorizationData; run the command"
                    + " again"));
      }
      AuthorizationData d = r.authorizationData().getFirst();
      return RegistryToken.decode(
          String.valueOf(d.authorizationToken()),
          String.valueOf(d.proxyEndpoint()),
          d.expiresAt() == null ? Instant.EPOCH : d.expiresAt());
    } catch (PlatformException e) {
      throw e;
    } catch (AwsServiceException e) {
      if (e.isThrottlingException() || e.statusCode() >= 500) {
        throw AwsErrors.map("GetAuthorizationToken", "ECR in " + region, 0, e);
      }
      String code = e.awsErrorDetails() == null ? "" : e.awsErrorDetails().errorCode();
      throw new PlatformException(
          new PlatformException.Reason.MissingCredentials(
              "ECR refused GetAuthorizationToken for profile '"
                  + profileName
                  + "' in "
                  + region
                  + " ("
                  + code
                  + ": "
                  + (e.awsErrorDetails() == null
                      ? e.getMessage()
                      : e.awsErrorDetails().errorMessage())
                  + "); if the profile's session expired run `aws sso login --profile "
                  + profileName
                  + "`, and check that its identity may call ecr:GetAuthorizationToken"),
          e);
    } catch (RuntimeException e) {
      throw AwsErrors.map("GetAuthorizationToken", "ECR in " + region, 0, e);
    }
  }
}
