package dev.speechscale.cli;

import dev.speechscale.platform.PlatformProvider;
import dev.speechscale.platform.Platforms;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The scaling metric's physics a simulation assumes when the user names none: those of the platform
 * the qmax artifact was measured on ({@code platform} in the artifact).
 *
 * <ul>
 *   <li><b>aws</b>: a 60 s publication delay ({@link
 *       PlatformProvider#typicalMetricPublicationDelay} of the aws platform). SageMaker publishes
 *       an endpoint's invocation metrics to CloudWatch at a 60 s interval unless enhanced metrics
 *       are enabled (MetricsConfig, {@code MetricPublishFrequencyInSeconds}: "invocation metrics
 *       continue to be published at the default 60-second interval",
 *       https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_MetricsConfig.html), so a
 *       period becomes readable about a minute after it was sampled. Resolution: 10 s periods,
 *       ConcurrentRequestsPerModel being a high-resolution metric (Define a scaling policy,
 *       https://docs.aws.amazon.com/sagemaker/latest/dg/endpoint-auto-scaling-add-code-define.html)
 *       the plan's alarms read at 10 s.
 *   <li><b>local</b> (and any other): the platform's own delay, none on the local platform, whose
 *       autoscaler reads the same 10 s periods as they close.
 * </ul>
 */
final class MetricPhysics {
  /** The resolution both platforms publish the scaling metric at, in seconds. */
  static final int RESOLUTION_S = 10;

  private MetricPhysics() {}

  /** The delay {@code platform}'s scaling metric is published with; none when it is unknown. */
  static Duration delay(@Nullable String platform) {
    if (platform == null) {
      return Duration.ZERO;
    }
    return Platforms.find(platform)
        .map(PlatformProvider::typicalMetricPublicationDelay)
        .orElse(Duration.ZERO);
  }

  /** The delay given, else the measured platform's. */
  static Duration delay(@Nullable Duration given, @Nullable String platform) {
    return given != null ? given : delay(platform);
  }

  /** How the delay was chosen, for the artifact's parameters. */
  static String source(@Nullable Duration given, @Nullable String platform) {
    return given != null
        ? "given"
        : String.format(
            Locale.ROOT,
            "the %s platform's default (%d s, %d s resolution)",
            platform == null ? "unknown" : platform,
            delay(platform).toSeconds(),
            RESOLUTION_S);
  }
}
