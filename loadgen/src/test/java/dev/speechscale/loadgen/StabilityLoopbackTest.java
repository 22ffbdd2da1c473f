package dev.speechscale.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.artifacts.Histograms;
import dev.speechscale.artifacts.QmaxStep;
import dev.speechscale.artifacts.RungStability;
import dev.speechscale.loadgen.FakeTtsServer.Reply;
import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.Transport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rungs held until their windows agree, over loopback with tiny durations: proves the pipeline, not
 * numbers. Two windows within 100 % of their mean agree whenever both completed something (two
 * positive figures are never further than 100 % from their mean), so on any machine each rung stops
 * at its first checkpoint that has two non-empty windows; the max hold leaves room for a stalled
 * one.
 */
class StabilityLoopbackTest {
  private static final LadderSpec LADDER =
      LadderSpec.of(List.of(1, 2), Duration.ofMillis(200), Duration.ofMillis(100), 1, 3000)
          .withRefine(false)
          .withStability(new StabilityRule(2, 100, Duration.ofSeconds(3)))
          // 100 ms windows drift by chance on a shared machine: flag only, no rewarm
          .withDrift(DriftRecheck.DEFAULT.withRewarmBudget(Duration.ZERO));

  @Test
  void run_twoWindowsMustAgree_eachStepRecordsItsWindowsAndReportsTheCountedOnes()
      throws Exception {
    LadderResult result;
    try (FakeTtsServer server =
            new FakeTtsServer(1, Duration.ofMillis(2), Duration.ofMillis(2), n -> Reply.OK);
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      result =
          new LadderRunner(
                  invoker, TextPool.shuffled(List.of("a b", "c d e"), 9), LadderHooks.defaults())
              .run(LADDER);
    }

    assertThat(result.reports()).extracting(RungReport::concurrency).containsExactly(1, 2);
    for (RungReport r : result.reports()) {
      QmaxStep step = r.toStep(3000);
      RungStability s = step.stability();
      assertThat(s).isNotNull();
      assertThat(s.stable()).isTrue();
      assertThat(step.usable()).isTrue();
      assertThat(s.windowsRequired()).isEqualTo(2);
      assertThat(s.windows()).hasSizeGreaterThanOrEqualTo(2);
      // the first window is the hold's trailing 100 ms; the others follow it with no gap
      assertThat(s.windows().getFirst().startS()).isCloseTo(0.1, within(1e-9));
      for (int i = 1; i < s.windows().size(); i++) {
        assertThat(s.windows().get(i).startS())
            .isCloseTo(s.windows().get(i - 1).endS(), within(1e-9));
      }
      // the counted windows are the last two, and the step's figures are theirs together
      assertThat(s.windows().subList(s.windows().size() - 2, s.windows().size()))
          .allMatch(RungStability.Window::counted);
      assertThat(s.counted()).hasSize(2);
      long samples = s.counted().stream().mapToLong(RungStability.Window::samples).sum();
      assertThat(step.ok()).isEqualTo(samples);
      assertThat(Histograms.decode(step.ttfabHistogram()).getTotalCount()).isEqualTo(samples);
      assertThat(Duration.between(r.windowStart(), r.windowEnd()))
          .isEqualTo(Duration.ofMillis(200));
      assertThat(step.achievedRps()).isCloseTo(samples / 0.2, within(1e-6));
    }
  }

  @Test
  void run_oneWindow_recordsNoStabilityAndMeasuresTheTrailingWindow() throws Exception {
    LadderSpec single = LADDER.withStability(StabilityRule.SINGLE_WINDOW);
    LadderResult result;
    try (FakeTtsServer server = FakeTtsServer.fast();
        Invoker invoker = Targets.invoker(Transport.HTTP_STREAM, server.baseUri())) {
      result =
          new LadderRunner(invoker, TextPool.shuffled(List.of("hello"), 1), LadderHooks.defaults())
              .run(single);
    }

    assertThat(result.steps()).allSatisfy(step -> assertThat(step.stability()).isNull());
    RungReport first = result.reports().getFirst();
    assertThat(Duration.between(first.windowStart(), first.windowEnd()))
        .isEqualTo(Duration.ofMillis(100));
  }
}
