package dev.speechscale.systemtests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.ArtifactKind;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.TtotalArtifact;
import dev.speechscale.artifacts.ValidateArtifact;
import dev.speechscale.platform.local.AwsControlPlane;
import dev.speechscale.platform.local.LocalPlatform;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain through the unmodified AWS adapter and the real AWS SDK: {@code --platform aws
 * --endpoint-url <the local AWS-shaped control plane> --runtime-url <the local router>} against a
 * locally deployed endpoint, with tiny durations: drift → qmax → ttotal → plan → deploy behind the
 * plan (locally, as {@code speech-infra deploy} does) → validate. Every control-plane call the
 * chain makes goes over SageMaker's, Application Auto Scaling's, CloudWatch's and CloudWatch Logs'
 * wire protocols. The endpoint runs without scaling until it is deployed behind the plan, so qmax
 * and ttotal pin capacity without suspending anything (no RegisterScalableTarget); the contract
 * test covers that call.
 */
class AwsChainEndToEndTest {
  @TempDir Path dir;

  @Test
  void chain_withPlatformAws_againstTheLocalControlPlane_producesValidArtifacts() throws Exception {
    try (LocalEndpoint endpoint = LocalEndpoint.configured(dir, "awse2e", "")) {
      endpoint.deploy();
      try (AwsControlPlane plane = AwsControlPlane.start(endpoint.state(), "us-east-1", 0)) {
        String[] aws = {
          "--platform",
          "aws",
          "--region",
          "us-east-1",
          "--endpoint-url",
          plane.uri().toString(),
          "--runtime-url",
          new LocalPlatform(endpoint.state()).routerUri("speech-awse2e").toString()
        };

        Cli drift = endpoint.ttsBench(LocalEndpoint.concat(new String[] {"drift"}, aws));
        assertThat(drift.exitCode()).as(drift.out() + drift.err()).isZero();

        endpoint.qmax(
            LocalEndpoint.concat(
                aws,
                "--rungs",
                "1,2,4",
                "--warmup",
                "3s",
                // CloudWatch's finest period is 10 s: a window holds at least one whole period
                "--hold",
                "12s",
                "--window",
                "11s",
                "--stability-windows",
                "1",
                "--no-refine"));
        Path qmax = endpoint.qmaxFile();
        assertThat(ArtifactCodec.validate(ArtifactKind.QMAX, Files.readString(qmax))).isEmpty();
        QmaxArtifact qa = ArtifactCodec.readQmax(qmax);
        assertThat(qa.qMax()).isPositive();

        Path ttotal = endpoint.ttotal(qmax, LocalEndpoint.concat(aws, "--timeout", "2m"));
        TtotalArtifact ta = ArtifactCodec.readTtotal(ttotal);
        assertThat(ta.missingStages()).isEmpty();
        long sumMs = ta.durations().stream().mapToLong(d -> Math.round(d.seconds() * 1000)).sum();
        assertThat(sumMs).isEqualTo(Math.round(ta.tTotalS() * 1000));

        Path plan = endpoint.plan(qmax, ttotal, "--peak-streams", "6");
        endpoint.deployBehind(plan);

        Path validate = dir.resolve("validate.json");
        Cli v =
            Cli.ttsBench(
                LocalEndpoint.concat(
                    LocalEndpoint.concat(
                        LocalEndpoint.concat(new String[] {"validate"}, endpoint.behind(plan)),
                        aws),
                    "--output",
                    validate.toString()));
        ValidateArtifact va = ArtifactCodec.readValidate(validate);
        assertThat(va.checks())
            .extracting(ValidateArtifact.Check::name)
            .contains("scaling_target_value", "scale_in_threshold", "queue_max_depth");
        assertThat(v.exitCode()).as(v.out() + v.err()).isEqualTo(va.verdict().failed() ? 1 : 0);
        System.err.println("control-plane calls over the AWS wire: " + plane.calls());
        assertThat(plane.calls())
            .containsKeys(
                "SageMaker.DescribeEndpoint",
                "SageMaker.DescribeModel",
                "SageMaker.UpdateEndpointWeightsAndCapacities",
                "ApplicationAutoScaling.DescribeScalingPolicies",
                "CloudWatch.DescribeAlarms",
                "CloudWatch.GetMetricData",
                "CloudWatchLogs.GetLogEvents");
      }
    }
  }
}
