package dev.speechscale.simulator;

import static dev.speechscale.simulator.FleetSimulatorTest.constant;
import static dev.speechscale.simulator.FleetSimulatorTest.numbers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulator's instance start jitter and capacity limit ({@link StartPhysics}). */
class StartPhysicsTest {
  private static final FleetSimulator.Options OPTIONS =
      new FleetSimulator.Options(3000, Duration.ZERO, 42);
  private static final InstanceModel MODEL =
      constant(0.1, 10, Duration.ofSeconds(56), Duration.ofSeconds(20));
  private static final Traffic SURGE = Traffic.step(30, 2, Duration.ofSeconds(3600));
  private static final Policy PLAN = Policies.planned(numbers(10));

  private static PolicyResult run(StartPhysics physics) {
    return FleetSimulator.run(
        MODEL, SURGE, PLAN, OPTIONS.withStartPhysics(physics), Progress.none());
  }

  @Test
  void capacityLimit_aStartPastItFails_theFleetStaysAtTheLimitAndSheds() {
    PolicyResult free = run(StartPhysics.NONE);
    PolicyResult limited = run(new StartPhysics(Duration.ZERO, 2));

    assertThat(free.peakInService()).as("without a limit the surge takes 3+").isGreaterThan(2);
    List<PolicyResult.ScalingEvent> refused =
        limited.events().stream()
            .filter(e -> e.cause().contains("InsufficientInstanceCapacity"))
            .toList();
    assertThat(refused).isNotEmpty();
    assertThat(refused)
        .allSatisfy(e -> {
          assertThat(e.to()).as("desired falls back to the limit").isEqualTo(2);
          assertThat(e.cause()).contains("capacity limit 2");
        });
    assertThat(limited.peakInService()).isEqualTo(2);
    long refusedAt = refused.getFirst().decidedAtSeconds();
    List<PolicyResult.Minute> after =
        limited.minutes().stream().filter(m -> m.minute() * 60 >= refusedAt + 60).toList();
    assertThat(after).allSatisfy(m -> assertThat(m.maxInService()).isLessThanOrEqualTo(2));
    assertThat(limited.shed())
        .as("the surge the limit leaves unserved is shed")
        .isGreaterThan(free.shed());
  }

  @Test
  void jitter_startsVaryWithinItsBound_reproducibly() {
    PolicyResult fixed = run(StartPhysics.NONE);
    StartPhysics tenSeconds = new StartPhysics(Duration.ofSeconds(10), 0);
    PolicyResult jittered = run(tenSeconds);

    List<Long> fixedStarts = startTimes(fixed);
    List<Long> jitteredStarts = startTimes(jittered);
    assertThat(fixedStarts).isNotEmpty().allSatisfy(d -> assertThat(d).isEqualTo(20L));
    assertThat(jitteredStarts)
        .isNotEmpty()
        .allSatisfy(
            d -> assertThat(d).as("20 s measured + [0, 10] s, whole ticks").isBetween(20L, 31L));
    assertThat(jitteredStarts).as("the jitter moves some start").anyMatch(d -> d > 20);
    assertThat(run(tenSeconds)).as("the same seed, the same run").isEqualTo(jittered);
    assertThat(run(new StartPhysics(Duration.ZERO, 0)))
        .as("off is the run without it")
        .isEqualTo(FleetSimulator.run(MODEL, SURGE, PLAN, OPTIONS, Progress.none()));
  }

  @Test
  void negativeSettings_areRefusedNamingTheFlag() {
    assertThatThrownBy(() -> new StartPhysics(Duration.ofSeconds(-1), 0))
        .hasMessageContaining("--instance-start-jitter");
    assertThatThrownBy(() -> new StartPhysics(Duration.ZERO, -1))
        .hasMessageContaining("--capacity-limit");
  }

  /** Each scale-out's decision to in service of the last instance it started, in seconds. */
  private static List<Long> startTimes(PolicyResult r) {
    return r.events().stream()
        .filter(e -> e.to() > e.from() && e.inServiceAtSeconds().isPresent())
        .map(e -> e.inServiceAtSeconds().getAsLong() - e.decidedAtSeconds())
        .toList();
  }
}
