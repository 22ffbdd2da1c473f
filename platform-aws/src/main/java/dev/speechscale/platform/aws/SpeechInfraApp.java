package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.ArtifactCodec;
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
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;

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
    tag(foundation, modelCache, endpoint, spec, decision);
    return new SpeechInfraApp(app, spec, decision, foundation, modelCache, endpoint);
  }

  /** Tag key: the project every SpeechScale resource belongs to. */
  public static final String TAG_PROJECT = "speechscale:project";

  /** Tag key: the endpoint a model's resources serve. */
  public static final String TAG_ENDPOINT = "speechscale:endpoint";

  /** Tag key: the plan the scaling was attached behind (12 hex of its SHA-256), or {@code none}. */
  public static final String TAG_PLAN = "speechscale:plan-sha256";

  /**
   * Tags every taggable resource of the three stacks (CDK's {@link Tags} aspect reaches each L1
   * resource that has a {@code Tags} property): the project on all of them; the endpoint and the
   * plan digest on the model's two stacks only, since the foundation is shared by every model in
   * the account and region and a model's tag there would be wrong for the others. The digest is of
   * the plan artifact as read ({@link ArtifactCodec#toJson}), present only when the gate attached
   * scaling behind it, so a resource says which measured plan it was deployed from.
   */
  private static void tag(
      FoundationStack foundation,
      ModelCacheStack modelCache,
      EndpointStack endpoint,
      AwsEndpointSpec spec,
      ScalingGate.Decision decision) {
    String plan =
        switch (decision) {
          case ScalingGate.Decision.Attach a -> planDigest(a.plan());
          case ScalingGate.Decision.Withhold w -> "none";
        };
    for (Stack stack : List.<Stack>of(foundation, modelCache, endpoint)) {
      Tags.of(stack).add(TAG_PROJECT, "speechscale");
    }
    for (Stack stack : List.<Stack>of(modelCache, endpoint)) {
      Tags.of(stack).add(TAG_ENDPOINT, spec.endpointName());
      Tags.of(stack).add(TAG_PLAN, plan);
    }
  }

  /** The first 12 hex digits of the SHA-256 of the plan artifact's JSON. */
  static String planDigest(PlanArtifact plan) {
    try {
      byte[] sha =
          java.security.MessageDigest.getInstance("SHA-256")
              .digest(ArtifactCodec.toJson(plan).getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(sha).substring(0, 12);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
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
