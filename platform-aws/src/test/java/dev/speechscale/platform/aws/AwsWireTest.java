package dev.speechscale.platform.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.speechscale.platform.Alarm;
import dev.speechscale.platform.Fingerprint;
import dev.speechscale.platform.InstanceLog;
import dev.speechscale.platform.Invocation;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.ScalingState;
import dev.speechscale.platform.StageMarker;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import dev.speechscale.platform.SynthesisRequest;
import dev.speechscale.platform.Transport;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.SystemPropertyCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.AdaptiveRetryStrategy;

/**
 * What {@link AwsPlatform} makes of each AWS answer, beyond the shared contract, with the real SDK
 * clients on the wire ({@link WireAws}): marshalling of every request the provider sends,
 * pagination of every listing, the adaptive retry on throttling (counted in the requests the fake
 * served) and the mapping of the errors AWS answers with — throttling, validation, the missing
 * endpoint, a quota, denied access, rejected and missing credentials — to typed {@link
 * PlatformException}s whose messages name the call, the thing and the fix.
 *
 * <p>One endpoint (flite, one real speech-server instance) serves the class. A test that throttles
 * uses clients of its own, so the adaptive rate limiter it slows down is not the other tests'.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AwsWireTest {
  private static final Instant NOW = Instant.parse("2026-08-04T15:00:00Z");
  private static final String ENDPOINT = AwsFixtures.WIRE_ENDPOINT;
  private static final String RESOURCE_ID = "endpoint/speech-flite/variant/AllTraffic";

  private WireAws aws;
  private AwsPlatform platform;

  @BeforeAll
  void deploy() throws IOException {
    aws = WireAws.withTheWireEndpointInService();
    platform = platform(aws.clients());
  }

  @AfterEach
  void clearFaults() {
    aws.clearFaults();
    aws.services().registerTarget(ENDPOINT);
  }

  @AfterAll
  void tearDown() throws IOException {
    platform.close();
    aws.close();
    WireFigures.write(getClass(), aws.served());
  }

  private AwsPlatform platform(AwsApis.Clients clients) {
    return new AwsPlatform(
        clients,
        new AwsPlatform.Settings(WireAws.REGION, null, aws.uri(), Duration.ofSeconds(60)),
        Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private static PlatformException.Reason reason(Throwable e) {
    return ((PlatformException) e).reason();
  }

  @Test
  void physics_requestTimeout_isTheInvokersOwnSoDrainsWaitForIt() {
    // shares the class's clients, which tearDown closes: closing this one would close them too
    AwsPlatform slow =
        new AwsPlatform(
            aws.clients(),
            new AwsPlatform.Settings(WireAws.REGION, null, aws.uri(), Duration.ofMinutes(5)),
            Clock.fixed(NOW, ZoneOffset.UTC));
    assertThat(slow.physics(ENDPOINT).requestTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(platform.physics(ENDPOINT).requestTimeout()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void fingerprint_readsBackWhatTheStackPredicted() {
    Fingerprint f = platform.fingerprint(ENDPOINT);
    var predicted = AwsEndpointSpec.of(AwsFixtures.wireConfig()).deployedConfig();

    assertThat(f.instanceType()).isEqualTo("ml.c7i.large").isEqualTo(predicted.instanceType());
    assertThat(f.imageDigest()).isEqualTo(predicted.imageDigest());
    assertThat(f.containerEnv()).isEqualTo(predicted.containerEnv());
    assertThat(f.containerEnv()).doesNotContainKeys("MAX_QUEUE_DEPTH", "CONTAINER_START_EPOCH");
    assertThat(aws.lastBody("DescribeModel")).isEqualTo("{\"ModelName\":\"speech-flite-model\"}");
  }

  @Test
  void containerQueueBound_isTheModelsMaxQueueDepth() {
    assertThat(platform.containerQueueBound(ENDPOINT)).hasValue(50);
  }

  @Test
  void describe_unmarshalsTheVariantAndStampsTheInjectedClock() {
    var d = platform.describe(ENDPOINT);

    assertThat(d.observedAt()).isEqualTo(NOW);
    assertThat(d.instanceType()).isEqualTo("ml.c7i.large");
    assertThat(d.desiredInstances()).isEqualTo(1);
    assertThat(d.currentInstances()).isEqualTo(1);
    assertThat(aws.lastBody("DescribeEndpoint")).isEqualTo("{\"EndpointName\":\"speech-flite\"}");
  }

  @Test
  void scalingState_pagedPoliciesAndAlarms_allReadWithTheirPolicyNames() {
    long policiesBefore = aws.served("DescribeScalingPolicies");
    long alarmsBefore = aws.served("DescribeAlarms");

    ScalingState s = platform.scalingState(ENDPOINT);

    assertThat(s.policies()).hasSize(2);
    assertThat(s.alarms()).hasSize(2);
    Alarm high =
        s.alarms().stream()
            .filter(a -> a.name().startsWith("TargetTracking-" + RESOURCE_ID + "-AlarmHigh-"))
            .findFirst()
            .orElseThrow();
    assertThat(high.metricName()).isEqualTo("ConcurrentRequestsPerModel");
    assertThat(high.statistic()).isEqualTo(Statistic.MAXIMUM);
    assertThat(high.periodSeconds()).isEqualTo(10);
    assertThat(high.state()).isEqualTo(Alarm.AlarmState.INSUFFICIENT_DATA);
    assertThat(high.actions()).containsExactly("speech-flite-target-tracking");
    Alarm scaleIn =
        s.alarms().stream()
            .filter(a -> a.name().equals("speech-flite-scale-in"))
            .findFirst()
            .orElseThrow();
    assertThat(scaleIn.actions()).containsExactly("speech-flite-scale-in-step");
    assertThat(scaleIn.threshold()).isEqualTo(25.0);
    // One item per page: two policies are two requests, two alarms two more.
    assertThat(aws.served("DescribeScalingPolicies") - policiesBefore).isEqualTo(2);
    assertThat(aws.served("DescribeAlarms") - alarmsBefore).isEqualTo(2);
    assertThat(aws.lastBody("DescribeAlarms"))
        .contains("Action=DescribeAlarms", "AlarmNames.member.2=", "NextToken=1");
  }

  @Test
  void scalingState_noScalableTarget_saysWhyAndStillListsOrphanedPolicies() {
    aws.services().deregisterTarget(ENDPOINT);

    ScalingState s = platform.scalingState(ENDPOINT);

    assertThat(s.target()).isEmpty();
    assertThat(s.reason()).contains("no scalable target is registered for " + RESOURCE_ID);
    assertThat(s.policies()).hasSize(2);
  }

  @Test
  void setSuspended_noScalableTarget_isNotFoundNamingTheTarget() {
    aws.services().deregisterTarget(ENDPOINT);

    assertThatThrownBy(() -> platform.setSuspended(ENDPOINT, SuspendedState.ALL))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("scalable target " + RESOURCE_ID + " not found");
  }

  @Test
  void setSuspended_sendsOnlyTheSuspendedStateAndIsReadBack() {
    try {
      platform.setSuspended(ENDPOINT, new SuspendedState(true, false, true));

      assertThat(platform.scalingState(ENDPOINT).target().orElseThrow().suspended())
          .isEqualTo(new SuspendedState(true, false, true));
      assertThat(aws.lastBody("RegisterScalableTarget"))
          .contains("\"ResourceId\":\"" + RESOURCE_ID + "\"")
          .contains("\"DynamicScalingInSuspended\":true")
          .doesNotContain("MinCapacity", "MaxCapacity");
    } finally {
      platform.setSuspended(ENDPOINT, SuspendedState.NONE);
    }
  }

  @Test
  void setDesiredInstances_whileUpdating_isRefusedWithAwsReasonAndNotRetried() {
    platform.setDesiredInstances(ENDPOINT, 2);
    long before = aws.served("UpdateEndpointWeightsAndCapacities");
    try {
      assertThatThrownBy(() -> platform.setDesiredInstances(ENDPOINT, 3))
          .isInstanceOf(PlatformException.class)
          .satisfies(e ->
              assertThat(reason(e)).isInstanceOf(PlatformException.Reason.InvalidRequest.class))
          .hasMessageContaining("UpdateEndpointWeightsAndCapacities on endpoint speech-flite")
          .hasMessageContaining("refused because the endpoint is still Updating")
          .hasMessageContaining("Cannot update in-progress endpoint")
          .hasMessageContaining("wait until `speech-infra status` shows InService");
      assertThat(aws.served("UpdateEndpointWeightsAndCapacities") - before)
          .as("a ValidationException is not retried")
          .isEqualTo(1);
    } finally {
      aws.services().awaitInService(ENDPOINT, 2, Duration.ofSeconds(90));
      platform.setDesiredInstances(ENDPOINT, 1);
      aws.services().awaitInService(ENDPOINT, 1, Duration.ofSeconds(90));
    }
  }

  @Test
  void setDesiredInstances_overTheAccountQuota_isQuotaExceededWithTheLimit() {
    assertThatThrownBy(() -> platform.setDesiredInstances(ENDPOINT, 7))
        .isInstanceOf(PlatformException.class)
        .satisfies(e ->
            assertThat(reason(e))
                .isEqualTo(
                    new PlatformException.Reason.QuotaExceeded(
                        "SageMaker quota 'ml.c7i.large for endpoint usage'", 7, 6)))
        .hasMessageContaining("request a quota increase or lower max_instances");
    assertThat(platform.describe(ENDPOINT).desiredInstances()).isEqualTo(1);
  }

  @Test
  void controlPlane_isTheSdksAdaptiveRetryStrategyWithTheStatedAttempts() {
    var strategy = AwsApis.controlPlane().retryStrategy().orElseThrow();

    assertThat(strategy).isInstanceOf(AdaptiveRetryStrategy.class);
    assertThat(strategy.maxAttempts()).isEqualTo(AwsApis.CONTROL_PLANE_ATTEMPTS).isEqualTo(3);
  }

  @Test
  void describe_throttledOnce_theSdkRetriesAndTheCallSucceeds() {
    try (AwsPlatform own = platform(aws.clients())) {
      long before = aws.served("DescribeEndpoint");
      aws.throttle("DescribeEndpoint", 1);

      assertThat(own.describe(ENDPOINT).currentInstances()).isEqualTo(1);

      assertThat(aws.served("DescribeEndpoint") - before).isEqualTo(2);
      List<WireAws.Served> calls =
          aws.served().stream().filter(c -> c.operation().equals("DescribeEndpoint")).toList();
      assertThat(calls.subList(calls.size() - 2, calls.size()))
          .containsExactly(
              new WireAws.Served("SageMaker", "DescribeEndpoint", 400, "ThrottlingException", 1),
              new WireAws.Served("SageMaker", "DescribeEndpoint", 200, null, 2));
      assertThat(aws.lastSdkRequestHeader("DescribeEndpoint")).isEqualTo("attempt=2; max=3");
    }
  }

  @Test
  void describe_throttledOnEveryAttempt_isThrottledNamingTheCallTheAttemptsAndTheFix() {
    try (AwsPlatform own = platform(aws.clients())) {
      long before = aws.served("DescribeEndpoint");
      aws.throttle("DescribeEndpoint", AwsApis.CONTROL_PLANE_ATTEMPTS);

      assertThatThrownBy(() -> own.describe(ENDPOINT))
          .isInstanceOf(PlatformException.class)
          .satisfies(
              e -> assertThat(reason(e)).isInstanceOf(PlatformException.Reason.Throttled.class))
          .hasMessageContaining("DescribeEndpoint on endpoint speech-flite (3 attempts")
          .hasMessageContaining("ThrottlingException: Rate exceeded")
          .hasMessageContaining("wait and run the command again");
      assertThat(aws.served("DescribeEndpoint") - before).isEqualTo(AwsApis.CONTROL_PLANE_ATTEMPTS);
    }
  }

  @Test
  void metric_cloudWatchThrottlesInTheQueryProtocol_theSdkRetriesAndPagesOn() {
    invokeOnce();
    try (AwsPlatform own = platform(aws.clients())) {
      long before = aws.served("GetMetricData");
      aws.throttle("GetMetricData", 1);

      MetricSeries s =
          own.metric(ENDPOINT, lastMinutes(MetricQuery.Metric.INVOCATIONS, Statistic.SUM, 10));

      assertThat(s.datapoints()).isNotEmpty();
      // one throttled request, then one page per datapoint (the last page has no token)
      assertThat(aws.served("GetMetricData") - before).isEqualTo(1 + s.datapoints().size());
    }
  }

  @Test
  void metrics_queriesSharingARange_goInOneCallPerPageAndEqualSingleReads() {
    invokeOnce();
    List<MetricQuery> queries =
        List.of(
            lastMinutes(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, Statistic.MAXIMUM, 10),
            lastMinutes(MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL, Statistic.AVERAGE, 10),
            lastMinutes(MetricQuery.Metric.INVOCATIONS, Statistic.SUM, 10));
    MetricQuery shared = queries.getFirst();
    List<MetricQuery> sameRange =
        queries.stream()
            .map(q ->
                new MetricQuery(
                    q.metric(), q.statistic(), q.period(), shared.start(), shared.end()))
            .toList();
    long before = aws.served("GetMetricData");

    List<MetricSeries> batched = platform.metrics(ENDPOINT, sameRange);

    long calls = aws.served("GetMetricData") - before;
    int longest = batched.stream().mapToInt(s -> s.datapoints().size()).max().orElseThrow();
    assertThat(longest).isPositive();
    // the fake pages one datapoint per query per page: one call per page for all three
    assertThat(calls).isEqualTo(longest);
    for (int i = 0; i < sameRange.size(); i++) {
      assertThat(batched.get(i).query()).isEqualTo(sameRange.get(i));
      assertThat(batched.get(i).datapoints())
          .isEqualTo(platform.metric(ENDPOINT, sameRange.get(i)).datapoints());
    }
  }

  @Test
  void metrics_partialDataWithNoTokenLeft_isAnErrorNotAShorterSeries() {
    invokeOnce();
    aws.services().answerNextMetricDataWith("PartialData");

    assertThatThrownBy(() ->
            platform.metrics(
                ENDPOINT, List.of(lastMinutes(MetricQuery.Metric.INVOCATIONS, Statistic.SUM, 10))))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("PartialData for Invocations of speech-flite")
        .hasMessageContaining("no NextToken")
        .satisfies(
            e -> assertThat(reason(e)).isInstanceOf(PlatformException.Reason.Unavailable.class));
  }

  @Test
  void metrics_internalErrorStatus_isUnavailableNamingTheMetric() {
    invokeOnce();
    aws.services().answerNextMetricDataWith("InternalError");

    assertThatThrownBy(() ->
            platform.metric(
                ENDPOINT, lastMinutes(MetricQuery.Metric.INVOCATIONS, Statistic.SUM, 10)))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("InternalError for Invocations of speech-flite");
  }

  @Test
  void scalingState_autoScalingThrottledOnEveryAttempt_isThrottledNamingTheTarget() {
    try (AwsPlatform own = platform(aws.clients())) {
      own.describe(ENDPOINT); // learns the variant
      aws.throttle("DescribeScalableTargets", AwsApis.CONTROL_PLANE_ATTEMPTS);

      assertThatThrownBy(() -> own.scalingState(ENDPOINT))
          .isInstanceOf(PlatformException.class)
          .hasMessageContaining("DescribeScalableTargets on " + RESOURCE_ID + " (3 attempts");
    }
  }

  @Test
  void instanceLogs_logsThrottledOnce_theSdkRetriesAndEveryPageIsRead() {
    Instant since = Instant.now().minus(Duration.ofHours(1));
    int expected = platform.instanceLogs(ENDPOINT, since).getFirst().lines().size();
    try (AwsPlatform own = platform(aws.clients())) {
      aws.throttle("GetLogEvents", 1);

      List<InstanceLog> logs = own.instanceLogs(ENDPOINT, since);

      assertThat(logs.getFirst().lines()).hasSizeGreaterThanOrEqualTo(expected);
      assertThat(aws.served())
          .contains(
              new WireAws.Served("CloudWatchLogs", "GetLogEvents", 400, "ThrottlingException", 1),
              new WireAws.Served("CloudWatchLogs", "GetLogEvents", 200, null, 2));
    }
  }

  @Test
  void fingerprint_serverErrorOnEveryAttempt_isUnavailableAfterTheSdksRetries() {
    try (AwsPlatform own = platform(aws.clients())) {
      long before = aws.served("DescribeModel");
      aws.fail(
          "DescribeModel",
          AwsApis.CONTROL_PLANE_ATTEMPTS,
          new WireAws.Fault(500, "InternalFailure", "We encountered an internal error."));

      assertThatThrownBy(() -> own.fingerprint(ENDPOINT))
          .isInstanceOf(PlatformException.class)
          .satisfies(
              e -> assertThat(reason(e)).isInstanceOf(PlatformException.Reason.Unavailable.class))
          .hasMessageContaining("DescribeModel failed on the AWS side (500 InternalFailure")
          .hasMessageContaining("run the command again");
      assertThat(aws.served("DescribeModel") - before).isEqualTo(AwsApis.CONTROL_PLANE_ATTEMPTS);
    }
  }

  @Test
  void describe_missingEndpoint_isNotFoundWithAwsWordsAndNotRetried() {
    long before = aws.served("DescribeEndpoint");

    assertThatThrownBy(() -> platform.describe("speech-no-such-model"))
        .isInstanceOf(PlatformException.class)
        .satisfies(e -> assertThat(reason(e)).isInstanceOf(PlatformException.Reason.NotFound.class))
        .hasMessageContaining("endpoint speech-no-such-model not found")
        .hasMessageContaining("check the name and the region")
        .hasMessageContaining("Could not find endpoint");
    assertThat(aws.served("DescribeEndpoint") - before).isEqualTo(1);
  }

  @Test
  void metric_periodCloudWatchRefuses_isInvalidRequestQuotingTheQueryError() {
    assertThatThrownBy(() ->
            platform.metric(
                ENDPOINT,
                new MetricQuery(
                    MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                    Statistic.MAXIMUM,
                    Duration.ofSeconds(45),
                    Instant.now().minusSeconds(600),
                    Instant.now())))
        .isInstanceOf(PlatformException.class)
        .satisfies(
            e -> assertThat(reason(e)).isInstanceOf(PlatformException.Reason.InvalidRequest.class))
        .hasMessageContaining("GetMetricData on ConcurrentRequestsPerModel of speech-flite")
        .hasMessageContaining("InvalidParameterValue")
        .hasMessageContaining("must be 1, 5, 10, 30, or a multiple of 60");
  }

  @Test
  void describe_accessDenied_namesTheIamActionToGrant() {
    aws.deny("sagemaker:DescribeEndpoint");

    assertThatThrownBy(() -> platform.describe(ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .satisfies(
            e -> assertThat(reason(e)).isInstanceOf(PlatformException.Reason.InvalidRequest.class))
        .hasMessageContaining("DescribeEndpoint on endpoint speech-flite was denied")
        .hasMessageContaining("grant the caller sagemaker:DescribeEndpoint or use a role");
  }

  @Test
  void scalingState_alarmsDeniedInTheQueryProtocol_namesTheCloudWatchAction() {
    aws.deny("cloudwatch:DescribeAlarms");

    assertThatThrownBy(() -> platform.scalingState(ENDPOINT))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("was denied")
        .hasMessageContaining("grant the caller cloudwatch:DescribeAlarms");
  }

  @Test
  void anyCall_unknownAccessKey_isMissingCredentialsToRefresh() {
    try (AwsPlatform stranger = platform(aws.clients("AKIAUNKNOWNKEY000000"))) {
      assertThatThrownBy(() -> stranger.describe(ENDPOINT))
          .isInstanceOf(PlatformException.class)
          .satisfies(e ->
              assertThat(reason(e)).isInstanceOf(PlatformException.Reason.MissingCredentials.class))
          .hasMessageContaining(
              "AWS rejected the credentials for DescribeEndpoint (UnrecognizedClientException)")
          .hasMessageContaining("aws sso login");
    }
  }

  @Test
  void anyCall_noCredentialsFound_isMissingCredentialsWithTheFixAndSendsNothing() {
    long before = aws.served().size();
    AwsApis.Clients none =
        AwsApis.sdk(
            Region.of(WireAws.REGION), SystemPropertyCredentialsProvider.create(), aws.uri());
    try (AwsPlatform unsigned = platform(none)) {
      assertThatThrownBy(() -> unsigned.describe(ENDPOINT))
          .isInstanceOf(PlatformException.class)
          .satisfies(e ->
              assertThat(reason(e)).isInstanceOf(PlatformException.Reason.MissingCredentials.class))
          .hasMessageContaining("the AWS SDK found no credentials for DescribeEndpoint")
          .hasMessageContaining("aws configure");
    }
    assertThat(aws.served()).hasSize((int) before);
  }

  @Test
  void instanceLogs_theServersOwnOutput_pagedWithItsStageMarkersInOrder() {
    Instant since = Instant.now().minus(Duration.ofHours(1));
    long pagesBefore = aws.served("GetLogEvents");

    List<InstanceLog> logs = platform.instanceLogs(ENDPOINT, since);

    assertThat(logs).isNotEmpty();
    InstanceLog first = logs.getFirst();
    assertThat(first.instanceId()).startsWith("i-0");
    assertThat(first.lines())
        .extracting(InstanceLog.LogLine::message)
        .anySatisfy(m -> assertThat(m).startsWith("speech-server listening on 127.0.0.1:"));
    assertThat(StageMarker.in(first))
        .extracting(StageMarker::stage)
        .containsSubsequence(StageMarker.STAGES);
    int lines = first.lines().size();
    assertThat(aws.served("GetLogEvents") - pagesBefore)
        .as(
            "%d lines at %d per page, plus the page that returns the same token",
            lines, WireServices.EVENTS_PAGE)
        .isGreaterThanOrEqualTo(lines / WireServices.EVENTS_PAGE + 1);
  }

  @Test
  void instanceLogs_noLogGroup_isNotFound() {
    assertThatThrownBy(() -> platform.instanceLogs("speech-other", NOW))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("log group /aws/sagemaker/Endpoints/speech-other not found");
  }

  @Test
  void metric_firstChunkP95_isAskedForTheVariantInMicrosecondsAndAnswersFromRealInvocations() {
    invokeOnce();

    MetricSeries s =
        platform.metric(
            ENDPOINT, lastMinutes(MetricQuery.Metric.FIRST_CHUNK_LATENCY, Statistic.P95, 60));

    String form = aws.lastBody("GetMetricData");
    assertThat(form)
        .contains("Action=GetMetricData", "Version=2010-08-01")
        .contains("MetricDataQueries.member.1.MetricStat.Metric.Namespace=AWS%2FSageMaker")
        .contains("MetricDataQueries.member.1.MetricStat.Metric.MetricName=FirstChunkLatency")
        .contains(
            "MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Name=EndpointName")
        .contains(
            "MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.1.Value=speech-flite")
        .contains(
            "MetricDataQueries.member.1.MetricStat.Metric.Dimensions.member.2.Value=AllTraffic")
        .contains("MetricDataQueries.member.1.MetricStat.Stat=p95")
        .contains("MetricDataQueries.member.1.MetricStat.Period=60")
        .contains("ScanBy=TimestampAscending");
    assertThat(s.datapoints()).isNotEmpty();
    assertThat(s.datapoints()).allSatisfy(dp -> assertThat(dp.value()).isPositive());
    assertThat(s.datapoints())
        .isSortedAccordingTo(java.util.Comparator.comparing(MetricSeries.Datapoint::at));
  }

  @Test
  void invoker_realSynthesis_streamsThroughTheRuntimeAsPayloadParts() {
    Invocation i = invokeOnce();

    assertThat(i.outcome()).as(i.error()).isEqualTo(Invocation.Outcome.OK);
    assertThat(i.status()).isEqualTo(200);
    assertThat(i.audioBytes()).isGreaterThan(1000);
    assertThat(aws.lastBody("InvokeEndpointWithResponseStream"))
        .isEqualTo(SynthesisRequest.streaming("Hello from the wire.").toJson());
  }

  @Test
  void invoker_containerRefusesTheBody_isAClientErrorFromSageMakersModelError() {
    try (Invoker invoker = platform.invoker(ENDPOINT, Transport.RESPONSE_STREAM);
        Invoker.Connection c = invoker.connect()) {
      Invocation i = c.invoke(SynthesisRequest.streaming("x".repeat(5000)));

      assertThat(i.outcome()).isEqualTo(Invocation.Outcome.CLIENT_ERROR);
      assertThat(i.status()).isBetween(400, 499);
      assertThat(i.error()).contains("4096");
    }
  }

  @Test
  void invoker_otherTransports_sayToUseResponseStream() {
    assertThatThrownBy(() -> platform.invoker(ENDPOINT, Transport.HTTP_STREAM))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("use --transport response-stream");
  }

  @Test
  void settings_noRegion_saysHowToGiveOne() {
    assertThatThrownBy(() -> new AwsPlatform.Settings(" ", "work", null, null))
        .isInstanceOf(PlatformException.class)
        .hasMessageContaining("no AWS region: pass --region, set AWS_REGION or AWS_DEFAULT_REGION")
        .hasMessageContaining("to profile 'work' in ~/.aws/config");
  }

  private Invocation invokeOnce() {
    try (Invoker invoker = platform.invoker(ENDPOINT, Transport.RESPONSE_STREAM);
        Invoker.Connection c = invoker.connect()) {
      return c.invoke(SynthesisRequest.streaming("Hello from the wire."));
    }
  }

  private static MetricQuery lastMinutes(
      MetricQuery.Metric metric, Statistic statistic, int periodS) {
    Instant end = Instant.now().plusSeconds(1);
    return new MetricQuery(
        metric, statistic, Duration.ofSeconds(periodS), end.minusSeconds(600), end);
  }
}
