package dev.speechscale.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code scheduled_floors}: additive in plans (absent when empty, so old plans write back byte for
 * byte), and in configs, where they override the plan's.
 */
class ScheduledFloorsArtifactTest {
  static final Path OLD_PLAN = PlanSurgeCurveTest.OLD_PLAN;
  static final Path FILE = Path.of("endpoints.yaml");

  @Test
  void plan_withoutFloors_writesBackByteForByte() throws Exception {
    PlanArtifact p = ArtifactCodec.readPlan(OLD_PLAN);

    assertThat(p.scheduledFloors()).isEmpty();
    assertThat(ArtifactCodec.toJson(p)).doesNotContain("scheduled_floors");
    assertThat(ArtifactCodec.toJson(p).strip())
        .isEqualTo(Files.readString(OLD_PLAN, StandardCharsets.UTF_8).strip());
  }

  @Test
  void plan_withFloors_writesSortedHhMmAndTheSchemaAcceptsIt() {
    PlanArtifact p =
        ArtifactCodec.readPlan(OLD_PLAN)
            .withScheduledFloors(
                List.of(new ScheduledFloorEntry("20:30", 1), new ScheduledFloorEntry("8:00", 3)));

    String json = ArtifactCodec.toJson(p);

    assertThat(json).contains("\"scheduled_floors\"");
    assertThat(json.indexOf("\"08:00\"")).isLessThan(json.indexOf("\"20:30\""));
    assertThat(ArtifactCodec.validate(ArtifactKind.PLAN, json)).isEmpty();
    assertThat(ArtifactCodec.mapper().readValue(json, PlanArtifact.class).scheduledFloors())
        .containsExactly(new ScheduledFloorEntry("08:00", 3), new ScheduledFloorEntry("20:30", 1));
  }

  @Test
  void config_floors_overrideThePlans_andAbsentOnesComeFromIt() {
    EndpointConfigFile f =
        EndpointConfigFile.parse(
            FILE,
            """
            models:
              own:
                max_instances: 4
                scheduled_floors: [{at: "07:30", min_capacity: 3}]
              none:
                max_instances: 4
                scheduled_floors: []
              plans:
                max_instances: 4
            """);
    PlanArtifact plan =
        ArtifactCodec.readPlan(OLD_PLAN)
            .withScheduledFloors(List.of(new ScheduledFloorEntry("09:00", 2)));

    assertThat(f.model("own").withPlanValues(plan).scheduledFloorsOrNone())
        .containsExactly(new ScheduledFloorEntry("07:30", 3));
    assertThat(f.model("none").withPlanValues(plan).scheduledFloorsOrNone()).isEmpty();
    assertThat(f.model("plans").withPlanValues(plan).scheduledFloorsOrNone())
        .containsExactly(new ScheduledFloorEntry("09:00", 2));
  }

  @Test
  void config_badFloors_eachNamedWithTheFix() {
    assertThatThrownBy(() ->
            EndpointConfigFile.parse(
                FILE,
                """
                models:
                  m:
                    max_instances: 2
                    scheduled_floors:
                      - {at: "8h", min_capacity: 1}
                      - {at: "09:00", min_capacity: 5}
                      - {at: "10:00", min_capacity: 1}
                      - {at: "10:00", min_capacity: 2}
                      - {at: "11:00"}
                """))
        .hasMessageContaining("models.m.scheduled_floors[0]: scheduled floor at ('8h')")
        .hasMessageContaining("HH:MM")
        .hasMessageContaining(
            "models.m.scheduled_floors[1].min_capacity (5) is above max_instances (2)")
        .hasMessageContaining("models.m.scheduled_floors[3]: a second floor at 10:00")
        .hasMessageContaining("models.m.scheduled_floors[4]");
  }
}
