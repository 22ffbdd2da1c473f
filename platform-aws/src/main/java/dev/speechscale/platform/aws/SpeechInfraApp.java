package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.ScalingGate;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app for one model: the shared foundation stack, the model's weights cache and its
 * endpoint, wired together (bucket and execution role flow from the foundation; the endpoint waits
 * for the weights). The account and region come from the CDK context keys {@value #ACCOUNT} and
 * {@value #REGION}; without them the stacks are environment-agnostic and deploy to the account and
 * region of the credentials in use.
 *
 * @param app the CDK app (synthesize it with {@link App#synth()})
 * @param spec the checked SageMaker settings
 * @param decision the plan gate's decision
 * @param foundation the shared stack
 * @param modelCache the weights cache
 * @param endpoint the endpoint
 */
public record SpeechInfraApp(
    App app,
    AwsEndpointSpec spec,
    ScalingGate.Decision decision,
    FoundationStack foundation,
    ModelCacheStack modelCache,
    EndpointStack endpoint) {

  /** CDK context key of the target account. */
  public static final String ACCOUNT = "account";

  /** CDK context key of the target region. */
  public static final String REGION = "region";

  /**
   * Builds the app. Pure: reads nothing but its arguments, calls no AWS API.
   *
   * @param config the model's endpoint config
   * @param plan its plan artifact, or {@code null} when there is none
   * @param planSource where the plan was looked for (for the gate's messages)
   * @param context CDK context (account, region, ...)
   * @param outDir where {@link App#synth()} writes the cloud assembly
   * @throws dev.speechscale.platform.PlatformException when the config cannot deploy on SageMaker
   */
  public static SpeechInfraApp build(
      EndpointConfig config,
      @Nullable PlanArtifact plan,
      String planSource,
      Map<String, String> context,
      Path outDir) {
    AwsEndpointSpec spec = AwsEndpointSpec.of(config);
    ScalingGate.Decision decision =
        explain(ScalingGate.decide(config, spec.deployedConfig(), plan, planSource), spec, plan);

    App app =
        App.Builder.create()
            .outdir(outDir.toString())
            .context(new LinkedHashMap<String, Object>(context))
            .analyticsReporting(false)
            .build();
    StackProps props =
        props(app, "SpeechScale shared: model bucket, execution and invocation roles");
    FoundationStack foundation = new FoundationStack(app, props);
    ModelCacheStack modelCache =
        new ModelCacheStack(
            app,
            props(
                app,
                "SpeechScale "
                    + spec.modelName()
                    + ": weights of "
                    + spec.modelRepository()
                    + "@"
                    + spec.modelRevision()),
            spec,
            foundation.modelBucket());
    EndpointStack endpoint =
        new EndpointStack(
            app,
            props(app, "SpeechScale " + spec.modelName() + ": endpoint " + spec.endpointName()),
            spec,
            decision,
            foundation.modelBucket(),
            foundation.executionRole());
    endpoint.addDependency(modelCache, "the container mounts the weights the cache copies");
    return new SpeechInfraApp(app, spec, decision, foundation, modelCache, endpoint);
  }

  /** The stacks in deployment order. */
  public List<String> stackNames() {
    return List.of(foundation.getStackName(), modelCache.getStackName(), endpoint.getStackName());
  }

  private static StackProps props(App app, String description) {
    Object account = app.getNode().tryGetContext(ACCOUNT);
    Object region = app.getNode().tryGetContext(REGION);
    StackProps.Builder b = StackProps.builder().description(description);
    if (account != null || region != null) {
      b.env(
          Environment.builder()
              .account(account == null ? null : account.toString())
              .region(region == null ? null : region.toString())
              .build());
    }
    return b.build();
  }

  /** Adds the fix when the only reason a plan cannot match is an image pinned by tag. */
  private static ScalingGate.Decision explain(
      ScalingGate.Decision decision, AwsEndpointSpec spec, @Nullable PlanArtifact plan) {
    if (decision instanceof ScalingGate.Decision.Withhold w
        && plan != null
        && spec.imageDigest() == null) {
      return new ScalingGate.Decision.Withhold(
          w.reason()
              + " (aws.image_uri '"
              + spec.imageUri()
              + "' is pinned by tag only, so the deployment has no image digest: pin it as"
              + " REPOSITORY@sha256:DIGEST)");
    }
    return decision;
  }

  /** The account and region from context, for messages. */
  public String targetDescription() {
    Map<String, Object> ctx = new LinkedHashMap<>();
    Object account = app.getNode().tryGetContext(ACCOUNT);
    Object region = app.getNode().tryGetContext(REGION);
    if (account == null && region == null) {
      return "the account and region of your AWS credentials (no account/region context given)";
    }
    ctx.put(ACCOUNT, account == null ? "(credentials' account)" : account);
    ctx.put(REGION, region == null ? "(credentials' region)" : region);
    return "account " + ctx.get(ACCOUNT) + ", region " + ctx.get(REGION);
  }
}
