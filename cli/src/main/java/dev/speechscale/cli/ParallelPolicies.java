package dev.speechscale.cli;

import dev.speechscale.simulator.FleetSimulator;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.Policy;
import dev.speechscale.simulator.PolicyResult;
import dev.speechscale.simulator.Progress;
import dev.speechscale.simulator.Traffic;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs each policy's simulation on a thread of its own, up to the processors; the results do not
 * depend on it (each run is seeded and shares nothing). Runs of an hour or more report progress on
 * stderr.
 */
final class ParallelPolicies {
  private ParallelPolicies() {}

  /** The results in the order of {@code chosen}; a run's failure is rethrown as it was thrown. */
  static List<PolicyResult> run(
      InstanceModel model,
      Traffic offered,
      List<Policy> chosen,
      FleetSimulator.Options options,
      PrintWriter err) {
    int threads = Math.max(1, Math.min(chosen.size(), Runtime.getRuntime().availableProcessors()));
    Progress progress = progress(err);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<PolicyResult>> futures = new ArrayList<>();
      for (Policy p : chosen) {
        futures.add(pool.submit(() -> FleetSimulator.run(model, offered, p, options, progress)));
      }
      List<PolicyResult> out = new ArrayList<>();
      for (Future<PolicyResult> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliException("interrupted while simulating");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new CompletionException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private static Progress progress(PrintWriter err) {
    return (name, simulated, total) -> {
      if (total >= 3600) {
        synchronized (err) {
          err.printf(
              Locale.ROOT,
              "simulate: %-12s %6.1f / %.1f h%n",
              name,
              simulated / 3600.0,
              total / 3600.0);
          err.flush();
        }
      }
    };
  }
}
