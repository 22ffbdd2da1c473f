package dev.speechscale.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A rung's CPU figures from two samples, worked by hand. */
class RungCpuTest {
  private static final CpuSample START = new CpuSample(0, 0, 0, 0, 0);

  @Test
  void between_aQuietFourCpuMachine_countsBusyGeneratorAndOtherWork() {
    // 1000 ticks, 500 busy on 4 CPUs = 2.0 busy CPUs; 10 stolen = 1 %; the generator used
    // 0.5 s of CPU in 2 s of wall time = 0.25 CPUs; other = 2.0 - 0.25 - 1.5 (limit) = 0.25
    CpuSample end = new CpuSample(500, 1000, 10, 500_000_000L, 2_000_000_000L);
    RungCpu c = RungCpu.between(START, end, 4, 1.5);
    assertThat(c.busyCpus()).isCloseTo(2.0, within(1e-9));
    assertThat(c.stealShare()).isCloseTo(0.01, within(1e-9));
    assertThat(c.generatorCpus()).isCloseTo(0.25, within(1e-9));
    assertThat(c.otherCpus()).isCloseTo(0.25, within(1e-9));
    assertThat(c.machineBusy()).isFalse();
    assertThat(c.generatorBound(4)).isFalse();
  }

  @Test
  void between_noLimitKnown_assumesOneCpuForTheInstance() {
    // 4 x 800/1000 = 3.2 busy; generator 1 s in 1 s = 1.0; other = 3.2 - 1.0 - 1.0 = 1.2 > 0.5
    CpuSample end = new CpuSample(800, 1000, 0, 1_000_000_000L, 1_000_000_000L);
    RungCpu c = RungCpu.between(START, end, 4, null);
    assertThat(c.otherCpus()).isCloseTo(1.2, within(1e-9));
    assertThat(c.machineBusy()).isTrue();
  }

  @Test
  void machineBusy_stealOverFivePercent_isBusyEvenWithoutOtherWork() {
    // steal 60/1000 = 6 % > 5 %; busy 4 x 100/1000 = 0.4, less than the limit: other 0
    CpuSample end = new CpuSample(100, 1000, 60, 0, 1_000_000_000L);
    RungCpu c = RungCpu.between(START, end, 4, 1.0);
    assertThat(c.otherCpus()).isZero();
    assertThat(c.machineBusy()).isTrue();
  }

  @Test
  void generatorBound_overHalfTheMachine_isBound() {
    // 2.5 s of CPU in 1 s on 4 CPUs: 2.5 > 0.5 x 4
    CpuSample end = new CpuSample(900, 1000, 0, 2_500_000_000L, 1_000_000_000L);
    assertThat(RungCpu.between(START, end, 4, 1.0).generatorBound(4)).isTrue();
  }

  @Test
  void between_noTicksElapsed_isUnknown() {
    CpuSample end = new CpuSample(0, 0, 0, 1_000_000L, 1_000_000_000L);
    RungCpu c = RungCpu.between(START, end, 4, 1.0);
    assertThat(c).isEqualTo(RungCpu.UNKNOWN);
    assertThat(c.machineBusy()).isFalse();
    assertThat(c.generatorBound(4)).isFalse();
  }
}
