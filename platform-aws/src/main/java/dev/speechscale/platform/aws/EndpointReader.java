package dev.speechscale.platform.aws;

import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.PlatformException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.sagemaker.model.ContainerDefinition;
import software.amazon.awssdk.services.sagemaker.model.DeployedImage;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointRequest;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariant;
import software.amazon.awssdk.services.sagemaker.model.ProductionVariantSummary;

/**
 * Reads an endpoint, its variant and that variant's configuration from SageMaker. SpeechScale's
 * endpoints have one production variant; its name is remembered per endpoint after the first
 * description, so metric queries do not describe the endpoint each time.
 *
 * <p>An endpoint configuration is described once per name: SageMaker has no call that changes one
 * (the API Reference's {@code CreateEndpointConfig}: to change an endpoint's configuration, create
 * a new one and pass it to {@code UpdateEndpoint},
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_CreateEndpointConfig.html), and an
 * update gives the endpoint a new name to describe. Before this, every description of the endpoint
 * was two SageMaker calls: 526 of {@code validate --live}'s 557 control-plane calls in
 * measurements/aws-e2e.md.
 */
final class EndpointReader {
  private final AwsApis.SageMakerApi sageMaker;
  private final Map<String, String> variants = new ConcurrentHashMap<>();
  private final Map<String, DescribeEndpointConfigResponse> configs = new ConcurrentHashMap<>();

  EndpointReader(AwsApis.SageMakerApi sageMaker) {
    this.sageMaker = sageMaker;
  }

  DescribeEndpointResponse describeEndpoint(String endpoint) {
    return AwsErrors.call(
        "DescribeEndpoint",
        "endpoint " + endpoint,
        () ->
            sageMaker.describeEndpoint(
                DescribeEndpointRequest.builder().endpointName(endpoint).build()));
  }

  ProductionVariantSummary variant(DescribeEndpointResponse ep) {
    if (!ep.hasProductionVariants() || ep.productionVariants().isEmpty()) {
      throw new PlatformException(
          new PlatformException.Reason.Unavailable(
              "endpoint "
                  + ep.endpointName()
                  + " reports no production variant yet (status "
                  + ep.endpointStatusAsString()
                  + "); wait until it is InService"));
    }
    ProductionVariantSummary v = ep.productionVariants().getFirst();
    variants.put(ep.endpointName(), v.variantName());
    return v;
  }

  ProductionVariant configuredVariant(DescribeEndpointResponse ep, String variantName) {
    DescribeEndpointConfigResponse config = endpointConfig(ep.endpointConfigName());
    return config.productionVariants().stream()
        .filter(p -> p.variantName().equals(variantName))
        .findFirst()
        .orElseThrow(() ->
            new PlatformException(
                new PlatformException.Reason.NotFound(
                    "variant " + variantName + " in endpoint config " + ep.endpointConfigName(),
                    "the endpoint is mid-update; run the command again when it is InService")));
  }

  /** The endpoint configuration {@code name}, described on first use (configs never change). */
  DescribeEndpointConfigResponse endpointConfig(String name) {
    DescribeEndpointConfigResponse known = configs.get(name);
    if (known != null) {
      return known;
    }
    DescribeEndpointConfigResponse config =
        AwsErrors.call(
            "DescribeEndpointConfig",
            "endpoint config " + name,
            () ->
                sageMaker.describeEndpointConfig(
                    DescribeEndpointConfigRequest.builder().endpointConfigName(name).build()));
    configs.put(name, config);
    return config;
  }

  /** The variant's name, remembered after the first description of the endpoint. */
  String variantName(String endpoint) {
    String known = variants.get(endpoint);
    return known != null ? known : variant(describeEndpoint(endpoint)).variantName();
  }

  /** The sha256 digest (hex) SageMaker resolved the image to, else the one the image names. */
  static @Nullable String digest(
      ProductionVariantSummary v, @Nullable ContainerDefinition container) {
    List<String> candidates = new ArrayList<>();
    if (v.hasDeployedImages()) {
      for (DeployedImage i : v.deployedImages()) {
        candidates.add(i.resolvedImage());
        candidates.add(i.specifiedImage());
      }
    }
    if (container != null) {
      candidates.add(container.image());
    }
    for (String image : candidates) {
      if (image != null && image.contains("@sha256:")) {
        return image.substring(image.indexOf("@sha256:") + "@sha256:".length());
      }
    }
    return null;
  }

  static EndpointStatus status(String s) {
    return switch (s == null ? "" : s) {
      case "Creating" -> EndpointStatus.CREATING;
      case "InService" -> EndpointStatus.IN_SERVICE;
      case "Updating" -> EndpointStatus.UPDATING;
      case "SystemUpdating" -> EndpointStatus.SYSTEM_UPDATING;
      case "RollingBack" -> EndpointStatus.ROLLING_BACK;
      case "OutOfService" -> EndpointStatus.OUT_OF_SERVICE;
      case "Deleting" -> EndpointStatus.DELETING;
      default -> EndpointStatus.FAILED;
    };
  }
}
