package dev.speechscale.platform.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code speech-infra status}'s policy lines say what is deployed, for either scaling metric. */
class LocalInfraPoliciesTest {

  private static Views.Scaling scaling(String metric, String statistic, double threshold) {
    return new Views.Scaling(
        true,
        "scaling attached behind plan.json",
        "endpoint/speech-x/variant/AllTraffic",
        1,
        2,
        false,
        false,
        false,
        441.113,
        60,
        3,
        300,
        threshold,
        60,
        statistic,
        15,
        120,
        "OK",
        "INSUFFICIENT_DATA",
        List.of(),
        List.of(),
        metric,
        "missing");
  }

  private static String print(Views.Scaling sc) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    LocalInfra.printPolicies(new PrintStream(bytes, true, StandardCharsets.UTF_8), sc);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void invocationsTracking_isShownOnItsMetricWithItsOwnScaleInAndNoStepPolicy() {
    String out = print(scaling("invocations_per_instance", "Sum", 397.002));

    assertThat(out)
        .contains(
            "target tracking  InvocationsPerInstance Sum/60s > 441.113 for 3 periods, scale-in"
                + " enabled, cooldowns 300s out / 120s in  [alarm OK]")
        .contains(
            "its low alarm    InvocationsPerInstance Sum/60s < 397.002 for 15 periods, no step"
                + " policy  [alarm INSUFFICIENT_DATA]")
        .doesNotContain("ConcurrentRequestsPerModel")
        .doesNotContain("step scale-in");
  }

  @Test
  void concurrencyTracking_isShownWithThePlansStepScaleIn() {
    String out = print(scaling(null, "Maximum", 6.501));

    assertThat(out)
        .contains(
            "target tracking  ConcurrentRequestsPerModel Maximum/60s > 441.113 for 3 periods,"
                + " scale-in disabled")
        .contains(
            "step scale-in    ConcurrentRequestsPerModel Maximum/60s <= 6.501 for 15 periods");
  }
}
