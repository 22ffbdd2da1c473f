package dev.speechscale.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.speechscale.capacity.ServiceTimeDistribution;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A request that finds its slot free is served {@link IdleStart#serviceFactor()} of the time. One
 * slot, deterministic service S for a queued start and f·S for an idle one, Poisson arrivals: an
 * M/G/1 queue with an exceptional first service (Welch). The server is busy a fraction {@code 1 −
 * p0 = λ(p0·fS + (1 − p0)·S)} of the time, so by PASTA the share of arrivals that find it idle is
 * {@code p0 = (1 − λS)/(1 − λS + λfS)}. With the first byte at the end of service, an idle start's
 * TTFAB is exactly fS and a queued one's is at least S, so an SLO between them counts the idle
 * starts.
 */
class IdleStartTest {
  private static final int TABLE = 4096;
  private static final double S = 0.001;

  private static InstanceModel deterministic() {
    double[] constant = new double[TABLE];
    Arrays.fill(constant, S);
    return new InstanceModel(
        1,
        ServiceTimeDistribution.ofQuantiles(constant, "deterministic"),
        1.0,
        1.0,
        0,
        Duration.ofDays(1),
        Duration.ZERO,
        "idle-start test");
  }

  private static PolicyResult run(InstanceModel model, double rate, double sloMs, long seed) {
    return FleetSimulator.run(
        model,
        Traffic.constant(rate, Duration.ofSeconds(2000)),
        new Policy.Fixed(1),
        new FleetSimulator.Options(sloMs, Duration.ZERO, seed),
        Progress.none());
  }

  @Test
  void shareOfIdleStarts_md1WithFasterFirstService_matchesWelchWithin1Percent() {
    double f = 0.5;
    double lambda = 600;
    InstanceModel model = deterministic().withIdleStart(new IdleStart(f, f, "test"));

    PolicyResult r = run(model, lambda, 0.75, 21);

    double p0 = (1 - lambda * S) / (1 - lambda * S + lambda * f * S); // 0.4 / 0.7
    assertThat(p0).isCloseTo(0.5714, within(1e-4));
    assertThat(r.sloAttainment()).isCloseTo(p0, within(0.01));
    assertThat(r.ttfabP50Ms()).isCloseTo(f * S * 1000, within(0.01));
  }

  @Test
  void shareOfIdleStarts_withoutFactor_isTheMd1IdleShare() {
    // f = 1: p0 = 1 − ρ = 0.4; an idle start's TTFAB is S, a queued one's S + its wait (> 0), so
    // an SLO a hair above S counts the idle starts, and none is within 0.75 ms
    PolicyResult r = run(deterministic(), 600, 1.0001, 22);

    assertThat(r.sloAttainment()).isCloseTo(0.4, within(0.01));
    assertThat(run(deterministic(), 600, 0.75, 22).sloAttainment()).isZero();
  }

  @Test
  void firstByteFactor_onlyMovesTheFirstByte() {
    // service as queued (occupancy S), first byte at 0.5 S for an idle start: p0 stays 1 − ρ
    InstanceModel model = deterministic().withIdleStart(new IdleStart(1, 0.5, "test"));

    assertThat(run(model, 600, 0.75, 23).sloAttainment()).isCloseTo(0.4, within(0.01));
  }

  @Test
  void derivation_saysTheFactorsAndWhere_noneLeavesTheModelAsItWas() {
    InstanceModel base = deterministic();

    assertThat(base.withIdleStart(IdleStart.NONE)).isEqualTo(base);
    assertThat(base.withIdleStart(new IdleStart(0.835, 0.66, "qmax's open-loop rung")).derivation())
        .endsWith(
            "; a request that finds its slot free is served in x0.835 the time, first byte x0.660"
                + " (qmax's open-loop rung)");
  }

  @Test
  void factor_notFinitePositive_isRefusedNamingTheFactorAndTheFix() {
    assertThatThrownBy(() -> new IdleStart(0, 1, "qmax-a.json"))
        .isInstanceOf(SimulatorException.class)
        .hasMessageContaining("idle-start service factor (0.0, from qmax-a.json)")
        .hasMessageContaining("re-run tts-bench qmax");
    assertThatThrownBy(() -> new IdleStart(1, Double.NaN, "x"))
        .hasMessageContaining("idle-start first-byte factor (NaN");
  }
}
