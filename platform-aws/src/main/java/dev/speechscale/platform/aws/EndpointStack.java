package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.ScalingGate;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.sagemaker.CfnEndpoint;
import software.amazon.awscdk.services.sagemaker.CfnEndpointConfig;
import software.amazon.awscdk.services.sagemaker.CfnModel;
import software.constructs.Construct;

/**
 * One model's endpoint: the container's log group, the model (the image, the weights mounted from
 * the model bucket, the container environment with {@code MAX_QUEUE_DEPTH} from {@code
 * queue_max_depth}), an endpoint config with one production variant routed by least outstanding
 * requests and a 600 s startup health check, and the endpoint, created with {@code
 * RetainAllVariantProperties} so a redeploy never resets the instance count autoscaling chose.
 *
 * <p>Scaling and observability are added only when the {@link ScalingGate} attaches; either way the
 * decision is recorded as stack metadata ({@value #DECISION_METADATA}) and as the output {@code
 * ScalingDecision}, so the synthesized template says why.
 */
public final class EndpointStack extends Stack {
  /** The metadata key carrying the gate's reason. */
  public static final String DECISION_METADATA = "speechscale:scaling-decision";

  /** Startup health check timeout: model load plus warm-up must finish inside it. */
  static final int STARTUP_HEALTH_CHECK_TIMEOUT_S = 600;

  private final CfnEndpoint endpoint;

  EndpointStack(
      Construct scope,
      StackProps props,
      AwsEndpointSpec spec,
      ScalingGate.Decision decision,
      IBucket modelBucket,
      IRole executionRole) {
    super(scope, AwsNames.endpointStack(spec.modelName()), props);
    String endpointName = spec.endpointName();

    // Created here (rather than by SageMaker on first start) so retention is bounded and the
    // load-shedding metric filter has a group to attach to before the first instance logs.
    LogGroup logs =
        LogGroup.Builder.create(this, "ContainerLogs")
            .logGroupName(spec.logGroupName())
            .retention(RetentionDays.ONE_MONTH)
            .removalPolicy(RemovalPolicy.DESTROY)
            .build();

    Policy access =
        Policy.Builder.create(this, "ImageAndWeights")
            .roles(List.of(executionRole))
            .statements(
                List.of(
                    PolicyStatement.Builder.create()
                        .sid("PullImage")
                        .actions(
                            List.of(
                                "ecr:BatchGetImage",
                                "ecr:GetDownloadUrlForLayer",
                                "ecr:BatchCheckLayerAvailability"))
                        .resources(
                            List.of(
                                "arn:"
                                    + Aws.PARTITION
                                    + ":ecr:"
                                    + spec.ecrRegion()
                                    + ":"
                                    + spec.ecrAccount()
                                    + ":repository/"
                                    + spec.ecrRepository()))
                        .build(),
                    PolicyStatement.Builder.create()
                        .sid("ReadWeights")
                        .actions(List.of("s3:GetObject"))
                        .resources(List.of(modelBucket.arnForObjects(spec.weightsPrefix() + "*")))
                        .build(),
                    PolicyStatement.Builder.create()
                        .sid("ListWeights")
                        .actions(List.of("s3:ListBucket"))
                        .resources(List.of(modelBucket.getBucketArn()))
                        .conditions(
                            Map.of(
                                "StringLike",
                                Map.of("s3:prefix", List.of(spec.weightsPrefix() + "*"))))
                        .build()))
            .build();

    CfnModel model =
        CfnModel.Builder.create(this, "Model")
            .executionRoleArn(executionRole.getRoleArn())
            .primaryContainer(
                CfnModel.ContainerDefinitionProperty.builder()
                    .image(spec.imageUri())
                    .environment(spec.containerEnvironment())
                    .modelDataSource(
                        CfnModel.ModelDataSourceProperty.builder()
                            .s3DataSource(
                                CfnModel.S3DataSourceProperty.builder()
                                    .s3Uri(
                                        "s3://"
                                            + modelBucket.getBucketName()
                                            + "/"
                                            + spec.weightsPrefix())
                                    .s3DataType("S3Prefix")
                                    .compressionType("None")
                                    .build())
                            .build())
                    .build())
            .build();
    // SageMaker checks at CreateModel that the role can pull the image.
    model.getNode().addDependency(access);

    CfnEndpointConfig endpointConfig =
        CfnEndpointConfig.Builder.create(this, "EndpointConfig")
            .productionVariants(
                List.of(
                    CfnEndpointConfig.ProductionVariantProperty.builder()
                        .variantName(spec.variantName())
                        .modelName(model.getAttrModelName())
                        .instanceType(spec.config().instanceType())
                        .initialInstanceCount(spec.config().minInstances())
                        .initialVariantWeight(1)
                        .containerStartupHealthCheckTimeoutInSeconds(STARTUP_HEALTH_CHECK_TIMEOUT_S)
                        .routingConfig(
                            CfnEndpointConfig.RoutingConfigProperty.builder()
                                .routingStrategy("LEAST_OUTSTANDING_REQUESTS")
                                .build())
                        .build()))
            .build();

    endpoint =
        CfnEndpoint.Builder.create(this, "Endpoint")
            .endpointName(endpointName)
            .endpointConfigName(endpointConfig.getAttrEndpointConfigName())
            .retainAllVariantProperties(true)
            .build();
    endpoint.getNode().addDependency(logs);

    switch (decision) {
      case ScalingGate.Decision.Attach attach -> {
        new EndpointAutoscaling(this, "Autoscaling", spec, attach, endpoint);
        new EndpointObservability(this, "Observability", spec, attach, logs);
      }
      case ScalingGate.Decision.Withhold _ -> {
        // Nothing is attached: the endpoint runs at min_instances with no policies.
      }
    }
    getNode().addMetadata(DECISION_METADATA, decision.reason());
    CfnOutput.Builder.create(this, "ScalingDecision")
        .description("Why scaling is or is not attached (the SpeechScale plan gate)")
        .value(decision.reason())
        .build();
    CfnOutput.Builder.create(this, "EndpointName").value(endpointName).build();
  }

  public CfnEndpoint endpoint() {
    return endpoint;
  }
}
