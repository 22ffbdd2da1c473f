package dev.speechscale.benchmarks;

import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.scaling.ScaleInAlarm;
import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policies;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.Traffic;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The fleet simulator at the published Kokoro-82M scale: 10 minutes at 5000 req/s (about three
 * million requests) on 280 serial instances, beside its baseline, drawing the same Poisson arrivals
 * and doing nothing else. Simulated requests per second = the arrivals (printed by the setup) / the
 * time per operation. Settings are pinned here so figures are comparable across runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 5)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 5)
public class SimulatorBenchmark {
  static final long SEED = 1;

  private InstanceModel kokoro;
  private Traffic peak;
  private Traffic ramp;
  private FleetSimulator.Options options;
  private Policy plan;

  @Setup
  public void setUp() {
    // the published instance: serial engine, 17.9 req/s saturated, queue depth 50, 212.8 s start-up
    kokoro =
        new InstanceModel(
            1,
            ServiceTimeDistribution.lognormal(0.0613, 0.0661),
            1 / (17.9 * 0.0613),
            0.988,
            50,
            Duration.ofSeconds(56),
            Duration.ofMillis(212_808),
            "benchmark: Kokoro-82M as published");
    peak = Traffic.constant(5000, Duration.ofMinutes(10));
    ramp = Traffic.ramp(5000, 10, Duration.ofMinutes(10));
    options = new FleetSimulator.Options(3000, Duration.ZERO, SEED);
    plan =
        Policies.planned(
            new Policies.PlanNumbers(
                1,
                280,
                37.5,
                25,
                Duration.ofSeconds(30),
                Duration.ofSeconds(960),
                37.5,
                5000,
                0.0613,
                17.9,
                ScaleInAlarm.AVERAGE_60S));
    System.out.printf(
        "%narrivals per operation: peak %d, ramp %d%n",
        peak.countArrivals(SEED), ramp.countArrivals(SEED));
  }

  /** The baseline: the Poisson arrivals alone. */
  @Benchmark
  public long arrivalsOnly() {
    return peak.countArrivals(SEED);
  }

  /** 280 instances at 5000 req/s: routing, the gate, service, TTFAB histograms, metrics. */
  @Benchmark
  public PolicyResult fixedFleetAtPeak() {
    return FleetSimulator.run(kokoro, peak, new Policy.Fixed(280), options, Progress.none());
  }

  /** The plan's policy on a ramp to 5000 req/s: the above plus the scaling engine every second. */
  @Benchmark
  public PolicyResult planPolicyOnARamp() {
    return FleetSimulator.run(kokoro, ramp, plan, options, Progress.none());
  }
}
