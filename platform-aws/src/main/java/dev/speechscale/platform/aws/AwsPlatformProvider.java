package dev.speechscale.platform.aws;

import dev.speechscale.platform.Infra;
import dev.speechscale.platform.LadderDefaults;
import dev.speechscale.platform.Platform;
import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.PlatformSettings;
import dev.speechscale.platform.Transport;
import java.io.PrintStream;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.profiles.ProfileFile;

/** {@code --platform aws}: SageMaker endpoints through CDK and the SDK. */
public final class AwsPlatformProvider implements PlatformProvider {

  @Override
  public String name() {
    return "aws";
  }

  @Override
  public Platform open(PlatformSettings settings) {
    return AwsPlatform.create(
        AwsPlatform.Settings.of(region(settings), settings.profile(), settings.runtimeUrl()),
        settings.endpointUrl());
  }

  @Override
  public Transport naturalTransport() {
    return Transport.RESPONSE_STREAM;
  }

  /** The published tool's ladder: SageMaker needs minute-long holds to reach steady state. */
  @Override
  public LadderDefaults ladderDefaults() {
    return LadderDefaults.published();
  }

  /** CloudWatch publishes a SageMaker endpoint's invocation metrics about a minute late. */
  @Override
  public Duration typicalMetricPublicationDelay() {
    return Duration.ofSeconds(60);
  }

  @Override
  public Infra infra(PlatformSettings settings, String model, PrintStream out, PrintStream err) {
    return new AwsInfra(settings, model, out);
  }

  /**
   * The region given, else {@code AWS_REGION}, {@code AWS_DEFAULT_REGION} or the profile's {@code
   * region} ({@link AwsAccess#region}); {@code null} when none names one.
   */
  static @Nullable String region(PlatformSettings settings) {
    return AwsAccess.region(
        settings.region(), settings.profile(), System.getenv(), ProfileFile::defaultProfileFile);
  }
}
