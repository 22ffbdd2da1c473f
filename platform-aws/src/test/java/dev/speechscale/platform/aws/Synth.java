package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.EndpointConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** What the synthesized-template tests build and match alike. */
final class Synth {
  /** The CDK context every test account synthesizes in. */
  static final Map<String, String> ACCOUNT =
      Map.of("account", "123456789012", "region", "us-east-1");

  /** The resources the scaling gate adds only with a matching plan. */
  static final List<String> SCALING_AND_OBSERVABILITY =
      List.of(
          "AWS::ApplicationAutoScaling::ScalableTarget",
          "AWS::ApplicationAutoScaling::ScalingPolicy",
          "AWS::CloudWatch::Alarm",
          "AWS::CloudWatch::Dashboard",
          "AWS::Logs::MetricFilter");

  private Synth() {}

  /** The app for {@code config} with no plan, synthesized into {@code out} in {@link #ACCOUNT}. */
  static SpeechInfraApp withoutPlan(EndpointConfig config, Path out) {
    return SpeechInfraApp.build(config, null, "none", ACCOUNT, out);
  }

  /** Fails unless {@code endpoint} has none of {@link #SCALING_AND_OBSERVABILITY}. */
  static void assertNoScalingOrObservability(Template endpoint) {
    for (String type : SCALING_AND_OBSERVABILITY) {
      endpoint.resourceCountIs(type, 0);
    }
  }

  /**
   * Properties of a policy resource whose document's {@code Statement} matches {@code statements}.
   */
  static Map<String, Object> policyDocument(Object statements) {
    return Map.of("PolicyDocument", Match.objectLike(Map.of("Statement", statements)));
  }

  /** An {@code Fn::Join} whose joined parts include {@code part}. */
  static Object joinWith(String part) {
    return Match.objectLike(
        Map.of("Fn::Join", Match.arrayWith(List.of(Match.arrayWith(List.of(part))))));
  }
}
