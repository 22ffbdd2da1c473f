package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.DeployedConfig;
import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.platform.PlatformException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The SageMaker side of one model's endpoint config, checked for what the stacks need: an ECR image
 * (pinned by digest, or the fingerprint cannot match a plan), a Hugging Face repository at a pinned
 * 40-hex revision, a stated instance quota that {@code max_instances} fits, and an {@code ml.*}
 * instance type. Every problem is reported at once, each naming the field, the value and the fix.
 *
 * @param config the endpoint config it came from
 * @param endpointName {@code speech-<model>}
 * @param variantName the production variant
 * @param imageUri the container image deployed: {@code aws.gpu_image_uri} on a GPU instance type
 *     when the config names one, else {@code aws.image_uri}
 * @param imageDigest the image's sha256 digest (64 hex), or {@code null} when the image is pinned
 *     by tag only
 * @param ecrAccount the image repository's account
 * @param ecrRegion the image repository's region
 * @param ecrRepository the image repository's name
 * @param modelRepository the Hugging Face repository of the weights
 * @param modelRevision the pinned revision (40 hex)
 * @param quotaMaxInstances the account's stated instance quota for this type
 * @param gpuInstance whether the instance type has a GPU (ml.g*, ml.p*)
 */
public record AwsEndpointSpec(
    EndpointConfig config,
    String endpointName,
    String variantName,
    String imageUri,
    @Nullable String imageDigest,
    String ecrAccount,
    String ecrRegion,
    String ecrRepository,
    String modelRepository,
    String modelRevision,
    int quotaMaxInstances,
    boolean gpuInstance) {

  /** The container variable the platform sets from {@code queue_max_depth}. */
  public static final String MAX_QUEUE_DEPTH = "MAX_QUEUE_DEPTH";

  /** Variables the platform sets per instance; never part of the fingerprint. */
  public static final List<String> PLATFORM_VARIABLES =
      List.of(MAX_QUEUE_DEPTH, "CONTAINER_START_EPOCH");

  /** SageMaker's GPU instance families: ml.g4dn, ml.g5, ml.g6, ml.p3, ml.p4d, ml.p5, ... */
  private static final Pattern GPU_TYPE = Pattern.compile("ml\\.[gp]\\d[a-z0-9-]*\\..+");

  private static final Pattern ECR =
      Pattern.compile(
          "(\\d{12})\\.dkr\\.ecr\\.([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?/"
              + "([a-z0-9][a-z0-9._/-]*?)(?::([A-Za-z0-9._-]+))?(?:@sha256:([0-9a-f]{64}))?");

  /**
   * Checks a config for SageMaker.
   *
   * @throws PlatformException (InvalidRequest) listing every problem
   */
  public static AwsEndpointSpec of(EndpointConfig config) {
    String at = "models." + config.modelName();
    List<String> problems = new ArrayList<>();
    if (!config.instanceType().startsWith("ml.")) {
      problems.add(
          at
              + ".instance_type ('"
              + config.instanceType()
              + "') is not a SageMaker type; use an ml.* type such as ml.g5.xlarge for --platform"
              + " aws");
    }
    EndpointConfig.Aws aws = config.aws();
    if (aws == null) {
      problems.add(
          at
              + ".aws is missing; add image_uri, model_repository, model_revision and"
              + " quota_max_instances for --platform aws");
      throw invalid(config, problems);
    }
    boolean gpu = isGpuType(config.instanceType());
    Matcher image = ecr(at + ".aws.image_uri", aws.imageUri(), problems);
    if (aws.gpuImageUri() != null) {
      Matcher gpuImage = ecr(at + ".aws.gpu_image_uri", aws.gpuImageUri(), problems);
      if (gpu) {
        image = gpuImage;
      }
    }
    String deployedImage = gpu && aws.gpuImageUri() != null ? aws.gpuImageUri() : aws.imageUri();
    checkWeights(at, aws, problems);
    checkEngineSettings(at, config, problems);
    Integer quota = aws.quotaMaxInstances();
    checkQuota(at, config, quota, problems);
    if (!problems.isEmpty()) {
      throw invalid(config, problems);
    }
    // no problem: each of these was checked present above
    Matcher checkedImage = Objects.requireNonNull(image);
    return new AwsEndpointSpec(
        config,
        config.endpointName(),
        aws.variantName() == null ? "AllTraffic" : aws.variantName(),
        Objects.requireNonNull(deployedImage),
        checkedImage.group(5),
        checkedImage.group(1),
        checkedImage.group(2),
        checkedImage.group(3),
        Objects.requireNonNull(aws.modelRepository()),
        Objects.requireNonNull(aws.modelRevision()),
        Objects.requireNonNull(quota),
        gpu);
  }

  /** The weights: a Hugging Face OWNER/NAME at a pinned 40-hex revision. */
  private static void checkWeights(String at, EndpointConfig.Aws aws, List<String> problems) {
    if (aws.modelRepository() == null || !aws.modelRepository().matches("[\\w.-]+/[\\w.-]+")) {
      problems.add(
          at
              + ".aws.model_repository ('"
              + aws.modelRepository()
              + "') must name a Hugging Face repository as OWNER/NAME, e.g."
              + " onnx-community/Kokoro-82M-v1.0-ONNX (the ONNX export the kokoro engine loads)");
    }
    if (aws.modelRevision() == null) {
      problems.add(
          at
              + ".aws.model_revision is missing; pin the weights to a 40-hex commit of "
              + aws.modelRepository());
    } else if (!aws.modelRevision().matches("[0-9a-f]{40}")) {
      problems.add(
          at
              + ".aws.model_revision ('"
              + aws.modelRevision()
              + "') must be a 40-hex commit hash: pin the weights, never a branch");
    }
  }

  /** Only settings the speech-server reads: the container would ignore any other. */
  private static void checkEngineSettings(String at, EndpointConfig config, List<String> problems) {
    for (String key : config.engineSettings().keySet()) {
      if (!EndpointConfig.SERVER_SETTINGS.contains(key)) {
        problems.add(
            at
                + ".engine_settings."
                + key
                + " is not a speech-server setting; known: "
                + String.join(", ", EndpointConfig.SERVER_SETTINGS.stream().sorted().toList())
                + " (the container would not read it)");
      }
    }
  }

  /** The account's quota is stated, and max_instances fits in it. */
  private static void checkQuota(
      String at, EndpointConfig config, @Nullable Integer quota, List<String> problems) {
    if (quota == null) {
      problems.add(
          at
              + ".aws.quota_max_instances is missing; state the account's quota for '"
              + config.instanceType()
              + " for endpoint usage' (Service Quotas console) so max_instances can be checked");
    } else if (config.maxInstances() > quota) {
      problems.add(
          at
              + ".max_instances ("
              + config.maxInstances()
              + ") exceeds aws.quota_max_instances ("
              + quota
              + "); request a quota increase or lower max_instances");
    }
  }

  /** Whether SageMaker's instance type has a GPU: the ml.g* and ml.p* families. */
  static boolean isGpuType(String instanceType) {
    return GPU_TYPE.matcher(instanceType).matches();
  }

  private static @Nullable Matcher ecr(String field, @Nullable String uri, List<String> problems) {
    Matcher image = uri == null ? null : ECR.matcher(uri);
    if (image == null || !image.matches()) {
      problems.add(
          field
              + " ('"
              + uri
              + "') must be an ECR image, ACCOUNT.dkr.ecr.REGION.amazonaws.com/REPOSITORY@sha256:"
              + "DIGEST (SageMaker pulls from ECR; pin the digest so the fingerprint can match a"
              + " plan)");
    }
    return image;
  }

  private static PlatformException invalid(EndpointConfig config, List<String> problems) {
    return new PlatformException(
        new PlatformException.Reason.InvalidRequest(
            "models."
                + config.modelName()
                + " cannot be deployed on SageMaker ("
                + problems.size()
                + " problem"
                + (problems.size() == 1 ? "" : "s")
                + "):\n  "
                + String.join("\n  ", problems)));
  }

  /** The model name as a stack-name fragment. */
  public String modelName() {
    return config.modelName();
  }

  /**
   * The container environment the endpoint stack deploys: the engine and its settings ({@code
   * ENGINE}, {@code KOKORO_MODEL}, ...: {@link EndpointConfig#engineEnvironment()}, the variables
   * that choose what serves on every platform), the config's {@code container_env}, and {@code
   * MAX_QUEUE_DEPTH} from {@code queue_max_depth}.
   */
  public Map<String, String> containerEnvironment() {
    Map<String, String> env = new LinkedHashMap<>(config.engineEnvironment());
    env.putAll(config.containerEnv());
    env.put(MAX_QUEUE_DEPTH, Integer.toString(config.queueMaxDepth()));
    return env;
  }

  /**
   * What this deployment will report as its fingerprint: the instance type, the image digest and
   * the container environment without the platform's own variables — exactly what {@link
   * AwsPlatform#fingerprint} reads back from DescribeModel.
   */
  public DeployedConfig deployedConfig() {
    Map<String, String> env = new LinkedHashMap<>(containerEnvironment());
    PLATFORM_VARIABLES.forEach(env::remove);
    return new DeployedConfig(config.instanceType(), imageDigest, env);
  }

  /** The S3 key prefix of the weights: {@code models/<repository>/<revision>/}. */
  public String weightsPrefix() {
    return "models/" + modelRepository + "/" + modelRevision + "/";
  }

  /** The scalable target's resource id: {@code endpoint/<name>/variant/<variant>}. */
  public String resourceId() {
    return "endpoint/" + endpointName + "/variant/" + variantName;
  }

  /** The CloudWatch Logs group SageMaker writes the containers' output to. */
  public String logGroupName() {
    return AwsNames.logGroup(endpointName);
  }
}
