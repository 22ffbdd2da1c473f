package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.artifacts.EndpointConfig;
import dev.speechscale.artifacts.EndpointConfigFile;
import dev.speechscale.platform.EndpointStatus;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingPolicy;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.aws.AwsApis;
import dev.speechscale.platform.aws.AwsPlatform;
import dev.speechscale.platform.local.AwsControlPlane;
import dev.speechscale.platform.local.LocalDeployer;
import dev.speechscale.platform.local.LocalPlatform;
import dev.speechscale.platform.local.TestPlans;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.applicationautoscaling.ApplicationAutoScalingClient;
import software.amazon.awssdk.services.applicationautoscaling.model.ScalableTarget;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.LogStream;
import software.amazon.awssdk.services.cloudwatchlogs.model.OutputLogEvent;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.DescribeEndpointResponse;

/**
 * The local platform's AWS-shaped control plane against the real AWS SDK v2 clients and the
 * unmodified AWS adapter ({@link AwsPlatform}), served by a real local endpoint (flite, time scale
 * 0.1, scaling attached behind a matching plan): every operation the adapter calls, each answer
 * checked against what the local platform itself reports, the SigV4 scope refusals, and the
 * capacity change refused while the endpoint is Updating.
 */
class AwsControlPlaneContractTest {
  static final String MODEL = "awsplane";
  static final String ENDPOINT = "speech-" + MODEL;
  static final Region REGION = Region.US_EAST_1;
  static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDLOCALPLANE", "secret"));

  @TempDir static Path dir;
  static LocalDeployer deployer;
  static LocalPlatform local;
  static AwsControlPlane plane;
  static AwsPlatform aws;

  @BeforeAll
  static void deploy() throws Exception {
    Path config = dir.resolve("endpoints.yaml");
    Files.writeString(
        config,
        """
        models:
          %s:
            engine: flite
            instance_type: local.500mcpu
            min_instances: 1
            max_instances: 2
            scaling_target_value: 2.0
            scale_in_threshold: 1.0
            scale_out_cooldown_s: 5
            scale_in_cooldown_s: 5
            ttfab_slo_ms: 2000
            queue_max_depth: 0
            scheduled_floors: [{at: "23:00", min_capacity: 1}]
            local: {time_scale: 0.1}
        """
            .formatted(MODEL));
    Path root = dir.resolve("state");
    Path plan = dir.resolve("plan-" + MODEL + ".json");
    TestPlans.writeMatching(config, MODEL, root, plan);
    EndpointConfig model = EndpointConfigFile.read(config).model(MODEL);
    deployer = new LocalDeployer(root, line -> System.err.println("[deploy] " + line));
    LocalDeployer.Deployed deployed = deployer.deploy(model, config, plan);
    assertThat(deployed.scalingAttached()).as(deployed.scalingReason()).isTrue();
    local = new LocalPlatform(root);
    plane = AwsControlPlane.start(root, REGION.id(), 0);
    aws =
        new AwsPlatform(
            AwsApis.sdk(REGION, CREDENTIALS, plane.uri()),
            AwsPlatform.Settings.of(REGION.id(), null, URI.create(deployed.runtimeUrl())),
            Clock.systemUTC());
  }

  @AfterAll
  static void destroy() {
    if (aws != null) {
      aws.close();
    }
    if (plane != null) {
      plane.close();
    }
    if (deployer != null) {
      deployer.destroy(ENDPOINT);
    }
  }

  static SageMakerClient sageMaker(Region region) {
    return SageMakerClient.builder()
        .region(region)
        .credentialsProvider(CREDENTIALS)
        .endpointOverride(plane.uri())
        .httpClientBuilder(ApacheHttpClient.builder())
        .build();
  }

  static CloudWatchClient cloudWatch(Region region) {
    return CloudWatchClient.builder()
        .region(region)
        .credentialsProvider(CREDENTIALS)
        .endpointOverride(plane.uri())
        .httpClientBuilder(ApacheHttpClient.builder())
        .build();
  }

  @Test
  void describeEndpoint_isTheLocalEndpoint() {
    try (SageMakerClient sm = sageMaker(REGION)) {
      DescribeEndpointResponse r = sm.describeEndpoint(b -> b.endpointName(ENDPOINT));

      var d = local.describe(ENDPOINT);
      assertThat(r.endpointStatusAsString()).isEqualTo("InService");
      assertThat(r.endpointConfigName()).isEqualTo(ENDPOINT + "-config");
      assertThat(r.productionVariants())
          .singleElement()
          .satisfies(v -> {
            assertThat(v.variantName()).isEqualTo("AllTraffic");
            assertThat(v.currentInstanceCount()).isEqualTo(d.currentInstances());
            assertThat(v.desiredInstanceCount()).isEqualTo(d.desiredInstances());
            assertThat(v.deployedImages().getFirst().resolvedImage())
                .endsWith("@sha256:" + local.fingerprint(ENDPOINT).imageDigest());
          });
    }
  }

  @Test
  void describeEndpoint_unknownName_isSageMakersValidationException() {
    try (SageMakerClient sm = sageMaker(REGION)) {
      assertThatThrownBy(() -> sm.describeEndpoint(b -> b.endpointName("speech-nothing")))
          .isInstanceOfSatisfying(
              AwsServiceException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(400);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
              })
          .hasMessageContaining("Could not find endpoint");
    }
  }

  @Test
  void describeEndpointConfigAndModel_carryTheInstanceTypeAndEnvironment() {
    try (SageMakerClient sm = sageMaker(REGION)) {
      var config = sm.describeEndpointConfig(b -> b.endpointConfigName(ENDPOINT + "-config"));
      var variant = config.productionVariants().getFirst();
      var model = sm.describeModel(b -> b.modelName(variant.modelName()));

      assertThat(variant.instanceTypeAsString()).isEqualTo("local.500mcpu");
      assertThat(model.primaryContainer().environment())
          .containsAllEntriesOf(local.fingerprint(ENDPOINT).containerEnv())
          .containsEntry("MAX_QUEUE_DEPTH", "0");
    }
  }

  @Test
  void adapter_fingerprint_isTheLocalFingerprint() {
    assertThat(aws.fingerprint(ENDPOINT)).isEqualTo(local.fingerprint(ENDPOINT));
    assertThat(aws.containerQueueBound(ENDPOINT)).isEqualTo(local.containerQueueBound(ENDPOINT));
  }

  @Test
  void describeScalableTargetsAndPolicies_areTheAutoscalers() {
    try (ApplicationAutoScalingClient aas =
        ApplicationAutoScalingClient.builder()
            .region(REGION)
            .credentialsProvider(CREDENTIALS)
            .endpointOverride(plane.uri())
            .httpClientBuilder(ApacheHttpClient.builder())
            .build()) {
      String resourceId = "endpoint/" + ENDPOINT + "/variant/AllTraffic";
      ScalableTarget t =
          aas.describeScalableTargets(b -> b.serviceNamespace("sagemaker").resourceIds(resourceId))
              .scalableTargets()
              .getFirst();
      var policies =
          aas.describeScalingPolicies(b -> b.serviceNamespace("sagemaker").resourceId(resourceId))
              .scalingPolicies();

      assertThat(t.minCapacity()).isEqualTo(1);
      assertThat(t.maxCapacity()).isEqualTo(2);
      assertThat(policies)
          .extracting(p -> p.policyTypeAsString())
          .containsExactly("TargetTrackingScaling", "StepScaling");
      assertThat(policies.getFirst().targetTrackingScalingPolicyConfiguration().targetValue())
          .isEqualTo(2.0);
      assertThat(policies.getLast().stepScalingPolicyConfiguration().cooldown()).isEqualTo(5);
      assertThat(policies).allSatisfy(p -> assertThat(p.alarms()).hasSize(1));
    }
  }

  @Test
  void scheduledActions_putDescribeDelete_throughTheSdk_areTheAutoscalersFloors() {
    try (ApplicationAutoScalingClient aas =
        ApplicationAutoScalingClient.builder()
            .region(REGION)
            .credentialsProvider(CREDENTIALS)
            .endpointOverride(plane.uri())
            .httpClientBuilder(ApacheHttpClient.builder())
            .build()) {
      String resourceId = "endpoint/" + ENDPOINT + "/variant/AllTraffic";
      aas.putScheduledAction(b ->
          b.serviceNamespace("sagemaker")
              .resourceId(resourceId)
              .scalableDimension("sagemaker:variant:DesiredInstanceCount")
              .scheduledActionName("morning")
              .schedule("cron(30 7 * * ? *)")
              .scalableTargetAction(t -> t.minCapacity(1)));

      var actions =
          aas.describeScheduledActions(b -> b.serviceNamespace("sagemaker").resourceId(resourceId))
              .scheduledActions();
      assertThat(actions)
          .extracting(a ->
              a.scheduledActionName()
                  + " "
                  + a.schedule()
                  + " "
                  + a.scalableTargetAction().minCapacity())
          .containsExactly("floor-2300 cron(0 23 * * ? *) 1", "morning cron(30 7 * * ? *) 1");
      assertThat(aws.scalingState(ENDPOINT).target())
          .isEqualTo(local.scalingState(ENDPOINT).target());

      var refused =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              software.amazon.awssdk.services.applicationautoscaling.model.ValidationException
                  .class,
              () ->
                  aas.putScheduledAction(b ->
                      b.serviceNamespace("sagemaker")
                          .resourceId(resourceId)
                          .scalableDimension("sagemaker:variant:DesiredInstanceCount")
                          .scheduledActionName("weekdays")
                          .schedule("cron(0 8 ? * MON-FRI *)")
                          .scalableTargetAction(t -> t.minCapacity(2))));
      assertThat(refused.getMessage()).contains("cron(M H * * ? *)");

      aas.deleteScheduledAction(b ->
          b.serviceNamespace("sagemaker")
              .resourceId(resourceId)
              .scalableDimension("sagemaker:variant:DesiredInstanceCount")
              .scheduledActionName("morning"));
      assertThat(
              aas.describeScheduledActions(
                      b -> b.serviceNamespace("sagemaker").resourceId(resourceId))
                  .scheduledActions())
          .extracting(a -> a.scheduledActionName())
          .containsExactly("floor-2300");
      org.assertj.core.api.Assertions.assertThatThrownBy(() ->
              aas.deleteScheduledAction(b ->
                  b.serviceNamespace("sagemaker")
                      .resourceId(resourceId)
                      .scalableDimension("sagemaker:variant:DesiredInstanceCount")
                      .scheduledActionName("morning")))
          .isInstanceOf(
              software.amazon.awssdk.services.applicationautoscaling.model.ObjectNotFoundException
                  .class);
    }
  }

  @Test
  void adapter_scalingState_isTheLocalOne() {
    ScalingState viaAws = aws.scalingState(ENDPOINT);
    ScalingState direct = local.scalingState(ENDPOINT);

    assertThat(viaAws.target()).isEqualTo(direct.target());
    assertThat(viaAws.alarms())
        .usingRecursiveFieldByFieldElementComparatorIgnoringFields("state")
        .containsExactlyElementsOf(direct.alarms());
    assertThat(viaAws.policies().getLast()).isEqualTo(direct.policies().getLast());
    ScalingPolicy.TargetTracking tracking =
        (ScalingPolicy.TargetTracking) viaAws.policies().getFirst();
    ScalingPolicy.TargetTracking expected =
        (ScalingPolicy.TargetTracking) direct.policies().getFirst();
    assertThat(tracking.targetValue()).isEqualTo(expected.targetValue());
    assertThat(tracking.scaleOutCooldownSeconds()).isEqualTo(expected.scaleOutCooldownSeconds());
    assertThat(tracking.disableScaleIn()).isTrue();
  }

  @Test
  void describeAlarms_answersTheAutoscalersAlarmsInTheQueryProtocol() {
    try (CloudWatchClient cw = cloudWatch(REGION)) {
      List<MetricAlarm> alarms =
          cw.describeAlarms(b -> b.alarmNames(ENDPOINT + "-scale-in")).metricAlarms();

      assertThat(alarms)
          .singleElement()
          .satisfies(a -> {
            assertThat(a.metricName()).isEqualTo("ConcurrentRequestsPerModel");
            assertThat(a.statisticAsString()).isEqualTo("Average");
            assertThat(a.threshold()).isEqualTo(1.0);
            assertThat(a.comparisonOperatorAsString()).isEqualTo("LessThanOrEqualToThreshold");
            assertThat(a.alarmActions()).singleElement().asString().endsWith("-step-scale-in");
            assertThat(a.treatMissingData()).isEqualTo("notBreaching");
          });
    }
  }

  @Test
  void getMetricData_isTheMetricStores() throws InterruptedException {
    // a window that ends 2 s back, so no sample is still arriving while both sides read it; the
    // store may hold nothing yet right after the deploy (this may run first), so wait for a sample
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    MetricQuery q;
    List<MetricSeries.Datapoint> direct;
    do {
      Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(2);
      q =
          new MetricQuery(
              MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
              Statistic.MAXIMUM,
              Duration.ofSeconds(1),
              end.minusSeconds(20),
              end);
      direct = local.metric(ENDPOINT, q).datapoints();
      if (direct.isEmpty()) {
        Thread.sleep(200); // polls the supervisor's metric store: nothing here to wait on
      }
    } while (direct.isEmpty() && System.nanoTime() < deadline);

    MetricSeries viaAws = aws.metric(ENDPOINT, q);

    assertThat(direct).as("the local metric store sampled the endpoint within 30 s").isNotEmpty();
    assertThat(viaAws.datapoints()).isEqualTo(direct);
  }

  @Test
  void logs_areTheInstancesStartupLogs() {
    try (CloudWatchLogsClient logs =
        CloudWatchLogsClient.builder()
            .region(REGION)
            .credentialsProvider(CREDENTIALS)
            .endpointOverride(plane.uri())
            .httpClientBuilder(ApacheHttpClient.builder())
            .build()) {
      String group = "/aws/sagemaker/Endpoints/" + ENDPOINT;
      List<InstanceLog> direct = local.instanceLogs(ENDPOINT, Instant.EPOCH);
      LogStream stream =
          logs.describeLogStreams(b -> b.logGroupName(group)).logStreams().getFirst();
      List<OutputLogEvent> events =
          logs.getLogEvents(b ->
                  b.logGroupName(group).logStreamName(stream.logStreamName()).startFromHead(true))
              .events();

      assertThat(stream.logStreamName()).isEqualTo("AllTraffic/" + direct.getFirst().instanceId());
      // CloudWatch Logs keeps milliseconds
      List<InstanceLog.LogLine> expected =
          direct.getFirst().lines().stream()
              .map(l -> new InstanceLog.LogLine(l.at().truncatedTo(ChronoUnit.MILLIS), l.message()))
              .toList();
      assertThat(events)
          .extracting(
              e -> new InstanceLog.LogLine(Instant.ofEpochMilli(e.timestamp()), e.message()))
          .startsWith(expected.toArray(InstanceLog.LogLine[]::new));
      assertThat(aws.instanceLogs(ENDPOINT, Instant.EPOCH).getFirst().lines())
          .startsWith(expected.toArray(InstanceLog.LogLine[]::new));
    }
  }

  @Test
  void wrongRegionInTheCredentialScope_isRefusedAsEachProtocolRefusesIt() {
    try (SageMakerClient sm = sageMaker(Region.EU_WEST_1);
        CloudWatchClient cw = cloudWatch(Region.EU_WEST_1)) {
      assertThatThrownBy(() -> sm.describeEndpoint(b -> b.endpointName(ENDPOINT)))
          .isInstanceOfSatisfying(
              AwsServiceException.class,
              e ->
                  assertThat(e.awsErrorDetails().errorCode())
                      .isEqualTo("InvalidSignatureException"))
          .hasMessageContaining("scoped to a valid region");
      assertThatThrownBy(() -> cw.describeAlarms(b -> b.alarmNames(ENDPOINT + "-scale-in")))
          .isInstanceOfSatisfying(
              AwsServiceException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(403);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("SignatureDoesNotMatch");
              });
    }
  }

  @Test
  void anotherServiceInTheCredentialScope_isRefused() throws Exception {
    String date =
        java.time.format.DateTimeFormatter.BASIC_ISO_DATE.format(java.time.LocalDate.now());
    HttpRequest request =
        HttpRequest.newBuilder(plane.uri())
            .header("X-Amz-Target", "SageMaker.DescribeEndpoint")
            .header("Content-Type", "application/x-amz-json-1.1")
            .header(
                "Authorization",
                String.format(
                    Locale.ROOT,
                    "AWS4-HMAC-SHA256 Credential=AKIDLOCALPLANE/%s/us-east-1/s3/aws4_request,"
                        + " SignedHeaders=host;x-amz-date, Signature=00",
                    date))
            .POST(HttpRequest.BodyPublishers.ofString("{\"EndpointName\":\"" + ENDPOINT + "\"}"))
            .build();
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());

      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(r.body())
          .contains("InvalidSignatureException")
          .contains("scoped to correct service: 'sagemaker'");
    }
  }

  @Test
  void capacityChange_whileUpdating_isRefusedUntilInService() throws Exception {
    aws.setSuspended(ENDPOINT, SuspendedState.ALL);
    try {
      aws.setDesiredInstances(ENDPOINT, 2);
      assertThat(aws.describe(ENDPOINT).status()).isEqualTo(EndpointStatus.UPDATING);

      assertThatThrownBy(() -> aws.setDesiredInstances(ENDPOINT, 1))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("Cannot update in-progress endpoint");

      await(
          "two instances in service",
          () -> {
            var d = aws.describe(ENDPOINT);
            return d.status() == EndpointStatus.IN_SERVICE && d.currentInstances() == 2;
          });
      aws.setDesiredInstances(ENDPOINT, 1);
      await(
          "back to one instance",
          () -> {
            var d = aws.describe(ENDPOINT);
            return d.status() == EndpointStatus.IN_SERVICE && d.currentInstances() == 1;
          });
      assertThat(local.scalingState(ENDPOINT).target().orElseThrow().suspended())
          .isEqualTo(SuspendedState.ALL);
    } finally {
      aws.setSuspended(ENDPOINT, SuspendedState.NONE);
    }
    assertThat(local.scalingState(ENDPOINT).target().orElseThrow().suspended())
        .isEqualTo(SuspendedState.NONE);
    assertThat(plane.calls())
        .containsKeys(
            "SageMaker.UpdateEndpointWeightsAndCapacities",
            "ApplicationAutoScaling.RegisterScalableTarget");
  }

  /** Polls until {@code condition} holds; fails after 90 s. */
  static void await(String what, BooleanSupplier condition) throws Exception {
    LocalEndpoint.await(what, Duration.ofSeconds(90), condition::getAsBoolean, held -> held);
  }
}
