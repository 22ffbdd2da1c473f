/**
 * The AWS SageMaker platform: the CDK for Java app {@code speech-infra} deploys, and the platform
 * SPI over the AWS SDK for Java v2. The only package in SpeechScale that imports {@code
 * software.amazon.*}.
 *
 * <p><b>Deploy side.</b> {@link dev.speechscale.platform.aws.SpeechInfraApp} builds three stacks
 * from our own records: {@link dev.speechscale.platform.aws.FoundationStack} (model bucket,
 * least-privilege execution and invocation roles), {@link
 * dev.speechscale.platform.aws.ModelCacheStack} (weights copied once from a pinned revision, with a
 * checksum manifest) and {@link dev.speechscale.platform.aws.EndpointStack} (model, endpoint
 * config, endpoint). Scaling ({@link dev.speechscale.platform.aws.EndpointAutoscaling}) and
 * observability ({@link dev.speechscale.platform.aws.EndpointObservability}) are added only when
 * {@link dev.speechscale.artifacts.ScalingGate} attaches behind a plan that matches the deployment;
 * otherwise the synthesized template records why. {@link dev.speechscale.platform.aws.AwsDeployer}
 * synthesizes offline and drives the AWS CDK CLI for deploy and destroy, saying first what it will
 * create or delete.
 *
 * <p><b>Measure side.</b> {@link dev.speechscale.platform.aws.AwsPlatform} implements every SPI
 * operation through {@link dev.speechscale.platform.aws.AwsApis}' narrow interfaces (one per
 * service), and {@link dev.speechscale.platform.aws.ResponseStreamInvokerProvider} serves the
 * {@code response-stream} transport (SageMaker Runtime InvokeEndpointWithResponseStream, retries
 * off) to {@link dev.speechscale.platform.Invokers}.
 */
package dev.speechscale.platform.aws;
