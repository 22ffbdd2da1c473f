package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AwsCallCountsTest {
  private static final String UPDATE = "SageMaker.UpdateEndpointWeightsAndCapacities";

  @Test
  void record_acceptedRefusedAndThrottled_countsEachAndKeepsTheOrder() {
    AwsCallCounts c = new AwsCallCounts();
    c.record(UPDATE, "ValidationException");
    c.record("SageMaker.DescribeEndpoint", "ThrottlingException");
    c.record("CloudWatch.GetMetricData", "Throttling");
    c.record(UPDATE, null);

    Map<String, AwsCallCounts.Count> s = c.snapshot();

    assertThat(s.get(UPDATE))
        .isEqualTo(new AwsCallCounts.Count(2, 0, Map.of("ValidationException", 1L)));
    assertThat(s.get("SageMaker.DescribeEndpoint").throttles()).isEqualTo(1);
    assertThat(s.get("CloudWatch.GetMetricData").throttles()).isEqualTo(1);
    assertThat(c.journal())
        .filteredOn(call -> call.operation().equals(UPDATE))
        .extracting(AwsCallCounts.Call::error)
        .containsExactly("ValidationException", null);
  }

  @Test
  void between_twoSnapshots_isWhatWasCalledInBetween() {
    AwsCallCounts c = new AwsCallCounts();
    c.record("SageMaker.DescribeEndpoint", null);
    Map<String, AwsCallCounts.Count> before = c.snapshot();
    c.record(UPDATE, "ValidationException");
    c.record(UPDATE, null);

    Map<String, AwsCallCounts.Count> step = AwsCallCounts.between(before, c.snapshot());

    assertThat(step).containsOnlyKeys(UPDATE);
    assertThat(AwsCallCounts.json(step))
        .isEqualTo(
            "{\"SageMaker.UpdateEndpointWeightsAndCapacities\":{\"calls\":2,\"throttles\":0,"
                + "\"errors\":{\"ValidationException\":1}}}");
    assertThat(AwsCallCounts.text(step))
        .startsWith(UPDATE)
        .contains("2 calls    0 throttled errors {ValidationException=1}");
  }

  @Test
  void record_fromManyThreads_losesNoCall() throws Exception {
    AwsCallCounts c = new AwsCallCounts();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch go = new CountDownLatch(1);
    try {
      for (int t = 0; t < 4; t++) {
        pool.submit(() -> {
          go.await();
          for (int i = 0; i < 1000; i++) {
            c.record("SageMaker.DescribeEndpoint", i % 10 == 0 ? "ThrottlingException" : null);
          }
          return null;
        });
      }
      go.countDown();
    } finally {
      pool.shutdown();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(c.snapshot().get("SageMaker.DescribeEndpoint"))
        .isEqualTo(new AwsCallCounts.Count(4000, 400, Map.of("ThrottlingException", 400L)));
    assertThat(c.journal()).hasSize(4000);
  }
}
