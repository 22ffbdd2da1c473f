package dev.speechscale.platform.aws;

import dev.speechscale.artifacts.ScheduledFloorEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * A plan's scheduled floors synthesize as the scalable target's scheduled actions: one per floor,
 * daily cron in UTC, MinCapacity only (MaxCapacity unchanged); a plan without floors has none.
 */
class ScheduledFloorsTemplateTest {
  private static Template synth(List<ScheduledFloorEntry> floors, Path out) {
    SpeechInfraApp app =
        SpeechInfraApp.build(
            AwsFixtures.config(),
            AwsFixtures.matchingPlan().withScheduledFloors(floors),
            "plan-kokoro-82m.json",
            Map.of("account", "123456789012", "region", "us-east-1"),
            out);
    return Template.fromStack(app.endpoint());
  }

  @Test
  void floors_areScheduledActionsOnTheTarget(@TempDir Path out) {
    Template t =
        synth(
            List.of(new ScheduledFloorEntry("20:30", 1), new ScheduledFloorEntry("08:00", 3)), out);

    t.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalableTarget",
        Map.of(
            "MinCapacity",
            1,
            "MaxCapacity",
            4,
            "ScheduledActions",
            List.of(
                Map.of(
                    "ScheduledActionName",
                    "floor-0800",
                    "Schedule",
                    "cron(0 8 * * ? *)",
                    "ScalableTargetAction",
                    Map.of("MinCapacity", 3, "MaxCapacity", Match.absent())),
                Map.of(
                    "ScheduledActionName",
                    "floor-2030",
                    "Schedule",
                    "cron(30 20 * * ? *)",
                    "ScalableTargetAction",
                    Map.of("MinCapacity", 1, "MaxCapacity", Match.absent())))));
  }

  @Test
  void noFloors_noScheduledActions(@TempDir Path out) {
    synth(List.of(), out)
        .hasResourceProperties(
            "AWS::ApplicationAutoScaling::ScalableTarget",
            Map.of("ScheduledActions", Match.absent()));
  }
}
