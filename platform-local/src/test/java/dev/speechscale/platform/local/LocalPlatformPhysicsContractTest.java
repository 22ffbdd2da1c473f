package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.platform.MetricQuery;
import dev.speechscale.platform.MetricSeries;
import dev.speechscale.platform.PlatformContract;
import dev.speechscale.platform.PlatformException;
import dev.speechscale.platform.RetryingPlatform;
import dev.speechscale.platform.StageMarker;
import dev.speechscale.platform.Statistic;
import dev.speechscale.platform.SuspendedState;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared platform contract once more, against a local endpoint under AWS physics (a 2 s metric
 * publication delay, 5 control calls/s, a 3 s instance start), through the chain's retrying path;
 * plus what each physics setting promises, checked on the raw platform.
 */
class LocalPlatformPhysicsContractTest extends PlatformContract {
  static final int DELAY_S = 2;
  static final int CALLS_PER_S = 5;
  static final int START_S = 3;

  @TempDir static Path dir;
  static LocalEndpoint endpoint;
  static RetryingPlatform retrying;

  @BeforeAll
  static void deploy() throws Exception {
    endpoint =
        LocalEndpoint.deploy(
            dir,
            "physics",
            ContractFixture.yaml(
                "physics",
                """
                    local:
                      aws_physics: {metric_delay_s: %d, control_calls_per_s: %d, instance_start_s: %d}
                """
                    .formatted(DELAY_S, CALLS_PER_S, START_S)),
            true);
    retrying = RetryingPlatform.of(endpoint.platform);
  }

  @AfterAll
  static void destroy() {
    endpoint.close();
  }

  @Override
  protected Fixture fixture() {
    return new ContractFixture(
        retrying,
        endpoint.endpoint(),
        (count, timeout) -> {
          Instant deadline = Instant.now().plus(timeout);
          while (true) {
            var d = retrying.describe(endpoint.endpoint());
            if (d.currentInstances() == count && d.desiredInstances() == count) {
              return;
            }
            assertThat(Instant.now())
                .as("%d in-service instances by %s", count, deadline)
                .isBefore(deadline);
            retrying.pause(retrying.pollInterval(endpoint.endpoint()));
          }
        });
  }

  @Test
  void physics_reportsTheConfiguredDelayAndAPollIntervalUnderTheLimit() {
    var p = endpoint.platform.physics(endpoint.endpoint());

    assertThat(p.metricPublicationDelay()).isEqualTo(Duration.ofSeconds(DELAY_S));
    assertThat(p.minPollInterval()).isGreaterThanOrEqualTo(Duration.ofMillis(1000 / CALLS_PER_S));
    assertThat(p.instanceStartBound()).isGreaterThan(Duration.ofSeconds(START_S));
  }

  @Test
  void describe_aboveTheLimit_isThrottledAsATypedPlatformException() {
    PlatformException throttled = null;
    for (int i = 0; i < 200 && throttled == null; i++) {
      try {
        endpoint.platform.describe(endpoint.endpoint());
      } catch (PlatformException e) {
        throttled = e;
      }
    }

    assertThat(throttled).as("a throttled call among 200 at full speed").isNotNull();
    assertThat(throttled.reason()).isInstanceOf(PlatformException.Reason.Throttled.class);
    assertThat(throttled).hasMessageContaining("Rate exceeded");
  }

  @Test
  void controlApi_aboveTheLimit_answersWithAwsThrottlingShape() throws Exception {
    LocalState.EndpointRecord r = new ControlClient(endpoint.root).live(endpoint.endpoint());
    String secret =
        Files.readString(
                LocalState.secretFile(LocalState.endpointDir(endpoint.root, endpoint.endpoint())))
            .strip();
    HttpRequest status =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + r.controlPort() + "/status"))
            .header(ControlServer.SECRET_HEADER, secret)
            .build();
    HttpResponse<String> refused = null;
    try (HttpClient http = HttpClient.newHttpClient()) {
      for (int i = 0; i < 200 && refused == null; i++) {
        HttpResponse<String> a = http.send(status, HttpResponse.BodyHandlers.ofString());
        if (a.statusCode() != 200) {
          refused = a;
        }
      }
    }

    assertThat(refused).as("a refused call among 200 at full speed").isNotNull();
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.headers().firstValue("x-amzn-ErrorType")).contains("ThrottlingException");
    assertThat(refused.body())
        .contains("\"__type\":\"ThrottlingException\"")
        .contains("\"message\":\"Rate exceeded\"");
  }

  @Test
  void metric_datapoints_arePublishedOnlyTheDelayAfterTheyWereSampled() {
    Instant start = Instant.now().minusSeconds(60);
    MetricSeries s =
        retrying.metric(
            endpoint.endpoint(),
            new MetricQuery(
                MetricQuery.Metric.CONCURRENT_REQUESTS_PER_MODEL,
                Statistic.MAXIMUM,
                Duration.ofSeconds(1),
                start,
                Instant.now().plusSeconds(60)));
    Instant answered = Instant.now();

    assertThat(s.datapoints()).isNotEmpty();
    // a datapoint's period starts at or before its sample, which is at least the delay old
    assertThat(s.datapoints())
        .allSatisfy(dp -> assertThat(dp.at()).isBeforeOrEqualTo(answered.minusSeconds(DELAY_S)));
  }

  @Test
  void setDesiredInstances_newInstance_isInServiceNoSoonerThanTheStretchWithTruthfulMarkers() {
    String name = endpoint.endpoint();
    int before = retrying.describe(name).currentInstances();
    retrying.setSuspended(name, SuspendedState.ALL);
    try {
      retrying.setDesiredInstances(name, before + 1);
      fixture().awaitInServiceInstances(before + 1, Duration.ofSeconds(120));

      Path stateDir = LocalState.endpointDir(endpoint.root, name);
      LocalState.InstanceRecord newest =
          LocalState.read(LocalState.statusFile(stateDir), Views.Status.class)
              .orElseThrow()
              .instances()
              .stream()
              .filter(i -> i.inServiceAt() != null)
              .max(Comparator.comparing(LocalState.InstanceRecord::requestedAt))
              .orElseThrow();
      assertThat(Duration.between(newest.requestedAt(), newest.inServiceAt()))
          .isGreaterThanOrEqualTo(Duration.ofSeconds(START_S));
      var log =
          retrying.instanceLogs(name, newest.requestedAt().minusSeconds(1)).stream()
              .filter(l -> l.instanceId().equals(newest.id()))
              .findFirst()
              .orElseThrow();
      StageMarker ready =
          StageMarker.in(log).stream()
              .filter(m -> m.stage().equals("ready"))
              .findFirst()
              .orElseThrow();
      // the server's markers are as it printed them: ready before in service, never moved
      assertThat(ready.at()).isBeforeOrEqualTo(newest.inServiceAt());
    } finally {
      retrying.setDesiredInstances(name, before);
      fixture().awaitInServiceInstances(before, Duration.ofSeconds(120));
      retrying.setSuspended(name, SuspendedState.NONE);
    }
  }
}
