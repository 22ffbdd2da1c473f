package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.List;

/**
 * The published Kokoro-82M run (ml.g5.xlarge, response streaming, SLO 3000 ms): the eight rungs,
 * their throughput, the uncontended service time and the 260.2 s + 60 s scale-out.
 */
final class KokoroExample {
  private KokoroExample() {}

  static final int[] CONCURRENCY = {1, 5, 10, 20, 30, 40, 50, 60};
  static final double[] P95_MS = {
    65.37169031798838, 286.17150341160595, 568.4855983126909, 1129.3242457322776,
    1689.802357647568, 2245.0045480392873, 2805.6634329725057, 3374.7788213193417
  };
  static final double[] RPS = {
    16.083333333333332,
    17.9,
    17.916666666666668,
    17.916666666666668,
    17.9,
    17.883333333333333,
    17.866666666666667,
    17.9
  };
  static final double S_MEAN_S = 0.06132258724884511;
  static final double S_P95_S = 0.06613509664312005;

  static List<Rung> rungs(int run, double ratio) {
    List<Rung> rungs = new ArrayList<>();
    for (int i = 0; i < CONCURRENCY.length; i++) {
      int n = CONCURRENCY[i];
      rungs.add(
          new Rung(
              run,
              i,
              n,
              Math.round(RPS[i] * 60),
              0,
              RPS[i],
              (double) n,
              P95_MS[i],
              i == 0 ? S_MEAN_S * 1000 : null,
              i == 0 ? S_P95_S * 1000 : null,
              Double.isNaN(ratio) ? null : n * ratio,
              Double.isNaN(ratio) ? null : n * ratio,
              true,
              null,
              Math.round(RPS[i] * 60 * 25.2)));
    }
    return rungs;
  }

  static Measurement measurement() {
    return measurement(rungs(0, 1.0));
  }

  static Measurement measurement(List<Rung> rungs) {
    return new Measurement(
        Ladder.of(rungs, 3000),
        S_MEAN_S,
        S_P95_S,
        ServiceTimeDistribution.lognormal(S_MEAN_S, S_P95_S),
        true,
        true,
        50,
        List.of());
  }

  static ScaleOutTime scaleOut() {
    return new ScaleOutTime(
        260.248496,
        60.0,
        true,
        List.of(
            new ScaleOutTime.Stage("desired_set", "instance_logging", 180.835, true),
            new ScaleOutTime.Stage("instance_logging", "container_started", 3.724, true),
            new ScaleOutTime.Stage("container_started", "framework_init", 0.014, true),
            new ScaleOutTime.Stage("framework_init", "weights_ready", 6.475, false),
            new ScaleOutTime.Stage("weights_ready", "warmup_done", 1.046, false),
            new ScaleOutTime.Stage("warmup_done", "ready", 0.0, false),
            new ScaleOutTime.Stage("ready", "in_service", 20.713, false),
            new ScaleOutTime.Stage("in_service", "traffic_recovered", 47.441496, true)),
        List.of());
  }

  static Scenario scenario() {
    return new Scenario(
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

  /** The Kokoro rungs with throughput (achieved_rps) left out. */
  static Measurement withoutThroughput() {
    List<Rung> rungs = new ArrayList<>();
    for (Rung r : rungs(0, 1.0)) {
      rungs.add(
          new Rung(
              r.runIndex(),
              r.stepIndex(),
              r.concurrency(),
              r.ok(),
              r.rejected(),
              null,
              r.concurrencyMean(),
              r.ttfabP95Ms(),
              r.latencyMeanMs(),
              r.latencyP95Ms(),
              r.serverConcurrencyPeak(),
              r.serverConcurrencyMean(),
              true,
              null,
              null));
    }
    return measurement(rungs);
  }
}
