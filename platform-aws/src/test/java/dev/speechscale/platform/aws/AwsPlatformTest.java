package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.StageMarker;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.Transport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.cloudwatch.model.GetMetricDataRequest;
import software.amazon.awssdk.services.cloudwatch.model.MetricStat;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

/** What {@link AwsPlatform} makes of each AWS answer, beyond the shared contract. */
class AwsPlatformTest {
  private static final Instant NOW = Instant.parse("2026-08-04T15:00:00Z");

  private FakeAws aws;
  private AwsPlatform platform;

  @BeforeEach
  void setUp() {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    aws = new FakeAws(clock);
    platform =
        new AwsPlatform(
            aws.clients(),
            new AwsPlatform.Settings("us-east-1", null, null, Duration.ofSeconds(30)),
            clock);
  }

  @Test
  void fingerprint_readsBackWhatTheStackPredicted() {
    Fingerprint f = platform.fingerprint(AwsFixtures.ENDPOINT);
    var predicted = AwsEndpointSpec.of(AwsFixtures.config()).deployedConfig();

    assertThat(f.instanceType()).isEqualTo(predicted.instanceType());
    assertThat(f.imageDigest()).isEqualTo(predicted.imageDigest());
    assertThat(f.containerEnv()).isEqualTo(predicted.containerEnv());
    assertThat(f.containerEnv()).doesNotContainKeys("MAX_QUEUE_DEPTH", "CONTAINER_START_EPOCH");
  }

  @Test
  void containerQueueBound_isTheModelsMaxQueueDepth() {
    assertThat(platform.containerQueueBound(AwsFixtures.ENDPOINT)).hasValue(50);
  }

  @Test
  void describe_stampsTheAnswerWithTheInjectedClock() {
    assertThat(platform.describe(AwsFixtures.ENDPOINT).observedAt()).isEqualTo(NOW);
    assertThat(platform.describe(AwsFixtures.ENDPOINT).instanceType()).isEqualTo("ml.g5.xlarge");
  }

  @Test
  void scalingState_alarmsOfBothPolicies_mappedWithTheirPolicyNames() {
    ScalingState s = platform.scalingState(AwsFixtures.ENDPOINT);

    assertThat(s.policies()).hasSize(2);
    Alarm high =
        s.alarms().stream()
            .filter(a -> a.name().equals(FakeAws.HIGH_ALARM))
            .findFirst()
            .orElseThrow();
    assertThat(high.metricName()).isEqualTo("ConcurrentRequestsPerModel");
    assertThat(high.statistic()).isEqualTo(Statistic.MAXIMUM);
    assertThat(high.periodSeconds()).isEqualTo(10);
    assertThat(high.state()).isEqualTo(Alarm.AlarmState.INSUFFICIENT_DATA);
    assertThat(high.actions()).containsExactly("speech-kokoro-82m-target-tracking");
    Alarm scaleIn =
        s.alarms().stream()
            .filter(a -> a.name().equals(FakeAws.SCALE_IN_ALARM))
            .findFirst()
            .orElseThrow();
    assertThat(scaleIn.actions()).containsExactly("speech-kokoro-82m-scale-in-step");
  }

  @Test
  void scalingState_noScalableTarget_saysWhyAndStillListsOrphanedPolicies() {
    aws.deregisterTarget();

    ScalingState s = platform.scalingState(AwsFixtures.ENDPOINT);

    assertThat(s.target()).isEmpty();
    assertThat(s.reason()).contains("no scalable target is registered for " + FakeAws.RESOURCE_ID);
    assertThat(s.policies()).hasSize(2);
  }

  @Test
  void setSuspended_noScalableTarget_isNotFoundNamingTheTarget() {
    aws.deregisterTarget();

    assertThatThrownBy(() ->
            platform.setSuspended(
                AwsFixtures.ENDPOINT, dev.speechscale.platform.SuspendedState.ALL))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("scalable target " + FakeAws.RESOURCE_ID + " not found");
  }

  @Test
  void setDesiredInstances_whileUpdating_isRefusedWithAwsReason() {
    platform.setDesiredInstances(AwsFixtures.ENDPOINT, 2);

    assertThatThrownBy(() -> platform.setDesiredInstances(AwsFixtures.ENDPOINT, 3))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("UpdateEndpointWeightsAndCapacities on endpoint speech-kokoro-82m")
        .hasMessageContaining("Cannot update in-progress endpoint");
  }

  @Test
  void setDesiredInstances_overTheAccountQuota_isQuotaExceededWithTheLimit() {
    platform.describe(AwsFixtures.ENDPOINT); // the variant is known: the next call is the update
    aws.failNext(
        FakeAws.error(
            SageMakerException.builder(),
            400,
            "ResourceLimitExceeded",
            "The account-level service limit 'ml.g5.xlarge for endpoint usage' is 4 Instances,"
                + " with current utilization of 4 Instances and a request delta of 1 Instances."));

    assertThatThrownBy(() -> platform.setDesiredInstances(AwsFixtures.ENDPOINT, 5))
        .isInstanceOf(PlatformException.class)
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isEqualTo(
                    new PlatformException.Reason.QuotaExceeded(
                        "SageMaker quota 'ml.g5.xlarge for endpoint usage'", 5, 4)))
        .hasMessageContaining("request a quota increase or lower max_instances");
  }

  @Test
  void anyCall_throttled_isThrottledNamingTheOperation() {
    aws.failNext(
        FakeAws.error(SageMakerException.builder(), 400, "ThrottlingException", "Rate exceeded"));

    assertThatThrownBy(() -> platform.describe(AwsFixtures.ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isEqualTo(new PlatformException.Reason.Throttled("DescribeEndpoint")));
  }

  @Test
  void anyCall_noCredentials_isMissingCredentialsWithTheFix() {
    aws.failNext(
        SdkClientException.create(
            "Unable to load credentials from any of the providers in the chain"));

    assertThatThrownBy(() -> platform.fingerprint(AwsFixtures.ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .satisfies(e ->
            assertThat(((PlatformException) e).reason())
                .isInstanceOf(PlatformException.Reason.MissingCredentials.class))
        .hasMessageContaining("aws configure");
  }

  @Test
  void anyCall_rejectedToken_isMissingCredentialsToRefresh() {
    aws.failNext(
        FakeAws.error(
            SageMakerException.builder(), 400, "ExpiredTokenException", "The token has expired"));

    assertThatThrownBy(() -> platform.describe(AwsFixtures.ENDPOINT))
        .hasMessageContaining("AWS rejected the credentials for DescribeEndpoint")
        .hasMessageContaining("aws sso login");
  }

  @Test
  void anyCall_accessDenied_namesTheActionToGrant() {
    aws.failNext(
        FakeAws.error(
            SageMakerException.builder(),
            400,
            "AccessDeniedException",
            "User is not authorized to perform sagemaker:DescribeEndpoint"));

    assertThatThrownBy(() -> platform.describe(AwsFixtures.ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("DescribeEndpoint on endpoint speech-kokoro-82m was denied")
        .hasMessageContaining("grant the caller that action");
  }

  @Test
  void instanceLogs_streamsSinceAnInstant_withMarkersAndWithoutLineTerminators() {
    platform.setDesiredInstances(AwsFixtures.ENDPOINT, 2);
    aws.completeUpdate();

    List<InstanceLog> logs = platform.instanceLogs(AwsFixtures.ENDPOINT, NOW);

    assertThat(logs).hasSize(1);
    assertThat(logs.getFirst().instanceId()).isEqualTo("i-0a002");
    assertThat(logs.getFirst().firstEventAt()).isEqualTo(NOW);
    assertThat(logs.getFirst().lines())
        .hasSize(6)
        .allSatisfy(l -> assertThat(l.message()).doesNotEndWith("\n"));
    assertThat(StageMarker.in(logs.getFirst()))
        .extracting(StageMarker::stage)
        .containsExactlyElementsOf(StageMarker.STAGES);
    assertThat(platform.instanceLogs(AwsFixtures.ENDPOINT, NOW.minus(Duration.ofDays(1))))
        .hasSize(2);
  }

  @Test
  void instanceLogs_noLogGroup_isNotFound() {
    assertThatThrownBy(() -> platform.instanceLogs("speech-other", NOW))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("log group /aws/sagemaker/Endpoints/speech-other not found");
  }

  @Test
  void metric_firstChunkP95_asksCloudWatchForTheVariantInMicroseconds() {
    MetricSeries s =
        platform.metric(
            AwsFixtures.ENDPOINT,
            new MetricQuery(
                MetricQuery.Metric.FIRST_CHUNK_LATENCY,
                Statistic.P95,
                Duration.ofSeconds(60),
                NOW.minusSeconds(600),
                NOW));

    GetMetricDataRequest request =
        aws.requests.stream()
            .filter(GetMetricDataRequest.class::isInstance)
            .map(GetMetricDataRequest.class::cast)
            .findFirst()
            .orElseThrow();
    MetricStat stat = request.metricDataQueries().getFirst().metricStat();
    assertThat(stat.metric().namespace()).isEqualTo("AWS/SageMaker");
    assertThat(stat.metric().metricName()).isEqualTo("FirstChunkLatency");
    assertThat(stat.metric().dimensions())
        .extracting(d -> d.name() + "=" + d.value())
        .containsExactly("EndpointName=speech-kokoro-82m", "VariantName=AllTraffic");
    assertThat(stat.stat()).isEqualTo("p95");
    assertThat(stat.period()).isEqualTo(60);
    assertThat(s.datapoints()).hasSize(9);
    assertThat(s.datapoints())
        .isSortedAccordingTo(java.util.Comparator.comparing(MetricSeries.Datapoint::at));
  }

  @Test
  void invoker_otherTransports_sayToUseResponseStream() {
    assertThatThrownBy(() -> platform.invoker(AwsFixtures.ENDPOINT, Transport.HTTP_STREAM))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("use --transport response-stream");
  }

  @Test
  void settings_noRegion_saysHowToGiveOne() {
    assertThatThrownBy(() -> new AwsPlatform.Settings(" ", null, null, null))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("no AWS region: pass --region or set AWS_REGION");
  }
}
