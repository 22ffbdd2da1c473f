package dev.speechscale.cli;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.SearchModel;
import dev.speechscale.simulator.InstanceModel;
import dev.speechscale.simulator.PolicySearch;
import dev.speechscale.simulator.RateTable;
import dev.speechscale.simulator.SearchGoal;
import dev.speechscale.simulator.SimulatorException;
import dev.speechscale.simulator.Traffic;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What {@code search} reads: the artifacts, the instance model, the traffic and its rate table, the
 * goal and the screening's scale, each checked with a usage error naming the flag.
 */
record SearchInputs(
    SimulateInputs files,
    InstanceModel model,
    Traffic traffic,
    RateTable table,
    String traceDigest,
    SearchGoal goal,
    int scale) {

  static SearchInputs read(SearchFlags f, CommandSpec spec) {
    SearchGoal goal;
    try {
      goal = new SearchGoal(percent(f.goalSlo), percent(f.goalShed));
    } catch (SimulatorException e) {
      throw Cli.usage(spec, Cli.message(e));
    }
    if (f.heldOutShift.toMillis() % 60_000 != 0) {
      throw Cli.usage(
          spec, Flags.HELD_OUT_SHIFT + " (" + f.heldOutShift + ") must be whole minutes, e.g. 30m");
    }
    f.traffic.validate(spec);
    SimulateInputs in = f.files.read();
    QmaxArtifact q = in.qmax();
    PlanArtifact p = in.plan();
    InstanceModel model =
        SearchModel.instance(
            q, f.files.qmax.file.toString(), in.ttotals(), p, f.maxRequestAge.value);
    Traffic traffic = f.traffic.offered(p, f.files.plan.file, spec);
    RateTable table = RateTable.count(traffic, f.seed.value);
    String digest =
        f.traffic.traffic.trace != null ? sha256(f.traffic.traffic.trace) : table.digest();
    int scale = scale(f.screenScale, table, model, spec);
    return new SearchInputs(in, model, traffic, table, digest, goal, scale);
  }

  /** {@code 99.9} as {@code 0.999}, not {@code 0.9990000000000001}. */
  private static double percent(double p) {
    return Double.isFinite(p) ? java.math.BigDecimal.valueOf(p).movePointLeft(2).doubleValue() : p;
  }

  static int scale(String flag, RateTable table, InstanceModel model, CommandSpec spec) {
    if (flag.strip().equalsIgnoreCase("auto")) {
      return PolicySearch.autoScale(table, model.saturatedPerSecond());
    }
    try {
      int k = Integer.parseInt(flag.strip());
      if (k >= 1) {
        return k;
      }
    } catch (NumberFormatException e) {
      // the usage error below
    }
    throw Cli.usage(spec, "--screen-scale (" + flag + ") must be a whole number >= 1 or 'auto'");
  }

  private static String sha256(Path file) {
    try {
      return java.util.HexFormat.of()
          .formatHex(
              java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
