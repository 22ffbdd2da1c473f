package dev.speechscale.cli;

import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.StepBreakdown;
import dev.speechscale.artifacts.TtotalRuns;
import dev.speechscale.capacity.FleetCost;
import dev.speechscale.capacity.Load;
import dev.speechscale.capacity.Scenario;
import dev.speechscale.capacity.SurgeSimulation;
import dev.speechscale.capacity.Thresholds;
import dev.speechscale.chain.Flags;
import dev.speechscale.chain.PlanRun;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.report.PlanReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code tts-bench plan}: measured artifacts in, an explained, deployable plan out. No endpoint.
 * Option help: {@code flags.properties}.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Derive the scaling policy from a qmax artifact and a ttotal artifact (or an assumed T).",
      "Reads files only; never touches an endpoint. Exit 0 ok, 1 infeasible or refused, 2 usage."
    })
final class PlanCommand extends StampingCommand {
  @Spec CommandSpec spec;

  @Mixin QmaxFileOption qmax;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable TimeSource time;

  static final class TimeSource {
    @Option(names = Flags.TTOTAL, paramLabel = "FILE")
    @Nullable Path ttotal;

    @Option(
        names = Flags.ASSUME_T_TOTAL,
        paramLabel = "DURATION",
        converter = PublishedSeconds.class)
    @Nullable Duration assumed;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable LoadOption peak;

  static final class LoadOption {
    @Option(names = Flags.PEAK_RPS, paramLabel = "N")
    @Nullable Double rps;

    @Option(names = Flags.PEAK_STREAMS, paramLabel = "N")
    @Nullable Double streams;
  }

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  @Nullable TroughOption trough;

  static final class TroughOption {
    @Option(names = Flags.TROUGH_RPS, paramLabel = "N")
    @Nullable Double rps;

    @Option(names = Flags.TROUGH_STREAMS, paramLabel = "N")
    @Nullable Double streams;
  }

  @Option(names = Flags.SURGE_RATIO, defaultValue = "1.25", paramLabel = "K")
  double surgeRatio;

  @Option(names = Flags.MIN_FLOOR, defaultValue = "1", paramLabel = "N")
  int minFloor;

  @Option(names = Flags.SHED_TARGET, defaultValue = "0.10", paramLabel = "P")
  double shedTarget;

  @Option(names = Flags.CEILING, defaultValue = "60s", paramLabel = "DURATION")
  Duration ceiling;

  @Option(names = Flags.SLO, paramLabel = "DURATION")
  @Nullable Duration slo;

  @Mixin ConfigMismatchOption mismatch;

  @Mixin PricePerHourOption pricePerHour;

  @Mixin OutputOption output;

  @Option(names = Flags.TTOTAL_STATISTIC, defaultValue = "max", paramLabel = "max|p90|median")
  String ttotalStatistic;

  @Mixin JsonOption json;

  PlanCommand() {}

  PlanCommand(NanoClock clock) {
    super(clock);
  }

  private TtotalRuns.Statistic statistic() {
    try {
      return TtotalRuns.Statistic.ofLabel(ttotalStatistic);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(), Flags.TTOTAL_STATISTIC + ": " + e.getMessage());
    }
  }

  @Override
  public Integer call() {
    TimeSource t = time;
    if (t == null) {
      throw Cli.usage(spec, "give --ttotal FILE (measured T) or --assume-t-total DURATION");
    }
    Scenario shape = validateUsage(t);
    PlanRun.Result r =
        PlanRun.run(
            new PlanRun.Options(
                qmax.file,
                t.ttotal,
                t.assumed,
                shape,
                slo,
                mismatch.allowed,
                Cli.commandLine(spec),
                parameters(t, shape)),
            statistic(),
            line -> spec.commandLine().getErr().println(line),
            clock.instant());
    Double price = pricePerHour.usd;
    PlanArtifact artifact =
        price == null
            ? r.artifact()
            : r.artifact()
                .withCost(
                    FleetCost.of(
                        price,
                        r.plan().minInstances(),
                        r.plan().maxInstances(),
                        r.scenario().trough(),
                        r.scenario().peak(),
                        // null for a ladder measured before audio was recorded per request: the
                        // per-audio-hour figure is then omitted, and the cost says so
                        StepBreakdown.meanAudioSeconds(ArtifactCodec.readQmax(qmax.file).steps())));
    Path target = output.orDefault(artifact.defaultFileName());
    ArtifactCodec.write(target, artifact);
    PrintWriter out = spec.commandLine().getOut();
    if (!json.printed(out, artifact)) {
      out.print(report(artifact, r));
    }
    spec.commandLine().getErr().println("wrote " + target);
    return r.plan().infeasible() ? 1 : 0;
  }

  private String report(PlanArtifact artifact, PlanRun.Result r) {
    return PlanReport.render(
        artifact,
        r.plan(),
        r.scaleOut(),
        r.scenario(),
        ArtifactCodec.readQmax(qmax.file).qMaxInterval());
  }

  /**
   * Checks everything else that is a usage error (exit 2) before any file is read; {@code call()}
   * checked the time source.
   */
  private Scenario validateUsage(TimeSource t) {
    if (peak == null) {
      throw Cli.usage(spec, "give the peak load: --peak-rps N or --peak-streams N");
    }
    Load peakLoad = PlanLoads.peak(spec, peak.rps, peak.streams);
    Load troughLoad =
        trough == null ? null : PlanLoads.trough(spec, peakLoad, trough.rps, trough.streams);
    if (!(surgeRatio >= Thresholds.MIN_SURGE_RATIO
        && surgeRatio < Thresholds.MAX_SURGE_RATIO_EXCLUSIVE)) {
      throw Cli.usage(
          spec,
          Flags.SURGE_RATIO
              + " ("
              + surgeRatio
              + ") must be in [1, 1.5): at 1.5 the"
              + " scale-in threshold (1 - 2h) x Q_max reaches 0 and never fires");
    }
    if (minFloor < 1) {
      throw Cli.usage(spec, Flags.MIN_FLOOR + " (" + minFloor + ") must be at least 1");
    }
    if (!(shedTarget > 0 && shedTarget < 1)) {
      throw Cli.usage(
          spec,
          Flags.SHED_TARGET + " (" + shedTarget + ") must be between 0 and 1, e.g." + " 0.10");
    }
    if (ceiling.isNegative() || ceiling.isZero()) {
      throw Cli.usage(spec, Flags.CEILING + " (" + ceiling + ") must be positive, e.g. 60s");
    }
    PricePerHour.check(spec, pricePerHour.usd, ", e.g. 1.408 for ml.g5.xlarge on demand");
    if (t.assumed != null && (t.assumed.isNegative() || t.assumed.isZero())) {
      throw Cli.usage(
          spec, Flags.ASSUME_T_TOTAL + " (" + t.assumed + ") must be positive, e.g. 320s");
    }
    return shape(peakLoad, troughLoad);
  }

  private Scenario shape(Load peakLoad, @Nullable Load troughLoad) {
    return new Scenario(
        1, surgeRatio, peakLoad, troughLoad, minFloor, shedTarget, ceiling.toNanos() / 1e9, 1, 0);
  }

  private Map<String, Object> parameters(TimeSource t, Scenario s) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("qmax", qmax.file.toString());
    p.put("ttotal", t.ttotal == null ? null : t.ttotal.toString());
    p.put("assume_t_total_s", t.assumed == null ? null : t.assumed.toNanos() / 1e9);
    p.put("peak", s.peak().describe());
    p.put("trough", s.trough() == null ? null : s.trough().describe());
    p.put("surge_ratio", s.surgeRatio());
    p.put("min_floor", s.minFloor());
    p.put("shed_target", s.shedTarget());
    p.put("ceiling_s", s.ceilingSeconds());
    p.put("slo", slo == null ? "the ladder's" : slo.toString());
    p.put("allow_config_mismatch", mismatch.allowed);
    p.put("price_per_hour_usd", pricePerHour.usd);
    p.put("trials", SurgeSimulation.DEFAULT_TRIALS);
    p.put("seed", SurgeSimulation.DEFAULT_SEED);
    return p;
  }
}
