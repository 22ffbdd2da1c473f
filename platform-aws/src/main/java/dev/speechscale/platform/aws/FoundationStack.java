package dev.speechscale.platform.aws;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.ecr.RepositoryEncryption;
import software.amazon.awscdk.services.ecr.TagMutability;
import software.amazon.awscdk.services.iam.AccountRootPrincipal;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.constructs.Construct;

/**
 * What every SpeechScale endpoint in an account and region shares: the model bucket (TLS-only,
 * versioned, all public access blocked, retained on destroy because it holds the weights), the ECR
 * repository {@value #IMAGE_REPOSITORY} for the images (scanned on push, retained), the SageMaker
 * execution role and the client invocation role.
 *
 * <p>Least privilege: no {@code AmazonSageMakerFullAccess}. The execution role here may only write
 * logs to {@code /aws/sagemaker/Endpoints/speech-*}, publish metrics and fetch an ECR token; each
 * endpoint stack grants it read access to exactly its own image repository and weights prefix. The
 * invocation role may only invoke endpoints named {@code speech-*}, by the three runtime operations
 * (buffered, response stream, bidirectional stream).
 */
public final class FoundationStack extends Stack {
  /** The namespaces the execution role may publish metrics to: {@code SpeechScale/speech-*}. */
  static final String METRIC_NAMESPACES = "SpeechScale/speech-*";

  /** The ECR repository the stack creates for speech-server images ({@code bin/image build}). */
  public static final String IMAGE_REPOSITORY = "speech-server";

  private final Bucket modelBucket;
  private final Role executionRole;

  FoundationStack(Construct scope, StackProps props) {
    super(scope, AwsNames.FOUNDATION_STACK, props);

    modelBucket =
        Bucket.Builder.create(this, "ModelBucket")
            .versioned(true)
            .enforceSsl(true)
            .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
            .encryption(BucketEncryption.S3_MANAGED)
            .removalPolicy(RemovalPolicy.RETAIN)
            .lifecycleRules(
                List.of(
                    LifecycleRule.builder()
                        .abortIncompleteMultipartUploadAfter(Duration.days(7))
                        .noncurrentVersionExpiration(Duration.days(30))
                        .build()))
            .build();

    // Images are deployed pinned by digest, so nothing here expires an untagged image (it may be
    // the digest an endpoint runs) and tags may move (":gpu" is rebuilt); retained on destroy
    // like the bucket, because a deployed endpoint still pulls from it.
    Repository imageRepository =
        Repository.Builder.create(this, "ImageRepository")
            .repositoryName(IMAGE_REPOSITORY)
            .imageScanOnPush(true)
            .imageTagMutability(TagMutability.MUTABLE)
            .encryption(RepositoryEncryption.AES_256)
            .removalPolicy(RemovalPolicy.RETAIN)
            .build();

    executionRole =
        Role.Builder.create(this, "ExecutionRole")
            .assumedBy(new ServicePrincipal("sagemaker.amazonaws.com"))
            .description(
                "SageMaker execution role for SpeechScale endpoints (speech-*): logs, metrics, ECR"
                    + " token; image and weights are granted per endpoint stack")
            .build();
    String logGroups =
        "arn:" + Aws.PARTITION + ":logs:" + Aws.REGION + ":" + Aws.ACCOUNT_ID + ":log-group:";
    executionRole.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .sid("EndpointLogs")
            .actions(
                List.of(
                    "logs:CreateLogGroup",
                    "logs:CreateLogStream",
                    "logs:PutLogEvents",
                    "logs:DescribeLogStreams"))
            .resources(
                List.of(
                    logGroups + AwsNames.logGroup("speech-*"),
                    logGroups + AwsNames.logGroup("speech-*") + ":log-stream:*"))
            .build());
    // PutMetricData and GetAuthorizationToken have no resource-level permissions: "*" is the
    // narrowest resource IAM accepts for them. PutMetricData is narrowed instead by its
    // cloudwatch:namespace condition key to the project's own namespaces (SpeechScale/speech-*),
    // so the role cannot write into AWS/SageMaker or another application's metrics.
    executionRole.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .sid("MetricsInSpeechScaleNamespaces")
            .actions(List.of("cloudwatch:PutMetricData"))
            .resources(List.of("*"))
            .conditions(Map.of("StringLike", Map.of("cloudwatch:namespace", METRIC_NAMESPACES)))
            .build());
    executionRole.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .sid("EcrToken")
            .actions(List.of("ecr:GetAuthorizationToken"))
            .resources(List.of("*"))
            .build());

    Role invocationRole =
        Role.Builder.create(this, "InvocationRole")
            .assumedBy(new AccountRootPrincipal())
            .description("Invokes SpeechScale endpoints (speech-*) and nothing else")
            .build();
    invocationRole.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .sid("InvokeSpeechEndpoints")
            .actions(
                List.of(
                    "sagemaker:InvokeEndpoint",
                    "sagemaker:InvokeEndpointWithResponseStream",
                    "sagemaker:InvokeEndpointWithBidirectionalStream"))
            .resources(
                List.of(
                    "arn:"
                        + Aws.PARTITION
                        + ":sagemaker:"
                        + Aws.REGION
                        + ":"
                        + Aws.ACCOUNT_ID
                        + ":endpoint/speech-*"))
            .build());

    CfnOutput.Builder.create(this, "ImageRepositoryUri")
        .value(imageRepository.getRepositoryUri())
        .build();
    CfnOutput.Builder.create(this, "ModelBucketName").value(modelBucket.getBucketName()).build();
    CfnOutput.Builder.create(this, "ExecutionRoleArn").value(executionRole.getRoleArn()).build();
    CfnOutput.Builder.create(this, "InvocationRoleArn").value(invocationRole.getRoleArn()).build();
  }

  public IBucket modelBucket() {
    return modelBucket;
  }

  public IRole executionRole() {
    return executionRole;
  }
}
