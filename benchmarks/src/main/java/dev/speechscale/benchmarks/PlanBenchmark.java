package dev.speechscale.benchmarks;

import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.capacity.Plan;
import dev.speechscale.capacity.Planner;
import dev.speechscale.capacity.Rung;
import dev.speechscale.capacity.ScaleOutTime;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.capacity.ServiceTimeDistribution;
import dev.speechscale.capacity.SurgeSimulation;
import dev.speechscale.capacity.UnitsRatio;
import java.util.ArrayList;
import java.util.List;
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
 * A full {@code plan} computation — ladder analysis, thresholds, fleet sizing, the 1000-trial surge
 * simulation and the bisection for recommended_c_scale_max — on a 20-rung, 3-run ladder shaped like
 * the published Kokoro run, beside its baseline: the same plan without the simulation's cost (the
 * ladder analysis alone).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 2)
@org.openjdk.jmh.annotations.Measurement(iterations = 5, time = 2)
public class PlanBenchmark {
  private List<Rung> rungs;
  private Measurement measurement;
  private ScaleOutTime scaleOut;
  private Scenario scenario;

  @Setup
  public void setUp() {
    rungs = new ArrayList<>();
    for (int run = 0; run < 3; run++) {
      for (int i = 0; i < 20; i++) {
        int n = 1 + i * 4;
        double serviceMs = 55.9;
        double p95 = n == 1 ? 65.4 : n * serviceMs * 1.005;
        rungs.add(
            new Rung(
                run,
                i,
                n,
                1000,
                0,
                n == 1 ? 16.08 : 17.9,
                (double) n,
                p95,
                n == 1 ? 61.3 : null,
                n == 1 ? 66.1 : null,
                (double) n,
                (double) n,
                true,
                null,
                25_000L));
      }
    }
    measurement =
        new Measurement(
            Ladder.of(rungs, 3000),
            0.0613,
            0.0661,
            ServiceTimeDistribution.lognormal(0.0613, 0.0661),
            true,
            true,
            null,
            List.of());
    scaleOut = new ScaleOutTime(260.2, 60, true, List.of(), List.of());
    scenario =
        new Scenario(
            3000,
            1.25,
            new Load.RequestRate(5000),
            new Load.RequestRate(10),
            1,
            0.10,
            60,
            SurgeSimulation.DEFAULT_TRIALS,
            SurgeSimulation.DEFAULT_SEED);
  }

  /** The whole plan, as {@code tts-bench plan} computes it. */
  @Benchmark
  public Plan fullPlan() {
    return Planner.plan(measurement, scaleOut, scenario);
  }

  /** Baseline: re-analysing the 60 steps (Q_max, bracketing, curve, ratios) without simulating. */
  @Benchmark
  public Object ladderAnalysisOnly() {
    Ladder ladder = Ladder.of(rungs, 3000);
    return List.of(
        ladder.qMax(),
        ladder.bracketed(),
        ladder.throughputCurve().at(37.5),
        ladder.ratioNear(37.5, UnitsRatio.Statistic.MAXIMUM));
  }
}
