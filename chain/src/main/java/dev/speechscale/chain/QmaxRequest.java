package dev.speechscale.chain;

import dev.speechscale.loadgen.LadderSpec;
import dev.speechscale.loadgen.StabilityRule;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One {@code qmax} run, as {@code tts-bench qmax} parses it and {@code quickstart} builds it: its
 * sections hold every value the run uses (the platform's defaults already resolved), so the
 * artifact's parameters and the command line that runs it again are read off the request.
 *
 * @param target the endpoint
 * @param load how requests reach it
 * @param ladder the ladder
 * @param checks what the run refuses or adds
 */
public record QmaxRequest(Target target, Load load, Ladder ladder, Checks checks) {
  /** The text pool's name in the parameters when no {@code --texts} file was given. */
  static final String BUILT_IN_TEXTS = "built-in Harvard sentences";

  /**
   * How requests reach the endpoint.
   *
   * @param transport the transport
   * @param texts one request text per line, or {@code null} for the built-in sentences
   * @param seed the text pool's shuffle seed
   * @param events a JSONL file for every request, or {@code null}
   */
  public record Load(Transport transport, @Nullable Path texts, long seed, @Nullable Path events) {
    List<String> arguments() {
      return new Args()
          .add(Flags.TRANSPORT, transport.label())
          .optional(Flags.TEXTS, texts)
          .add(Flags.SEED, seed)
          .optional(Flags.EVENTS, events)
          .words();
    }
  }

  /**
   * The ladder.
   *
   * @param spec rungs, hold, windows, drift re-check and stability, defaults resolved
   * @param defaults where the platform's defaults came from ({@code LadderDefaults.source()})
   */
  public record Ladder(LadderSpec spec, String defaults) {
    List<String> arguments() {
      StabilityRule s = spec.stability();
      return new Args()
          .add(Flags.SLO, Duration.ofMillis(Math.round(spec.sloMs())))
          .add(Flags.RUNGS, spec.rungs())
          .add(Flags.HOLD, spec.hold())
          .add(Flags.WINDOW, spec.window())
          .add(Flags.SETTLE, spec.settle())
          .add(Flags.STABILITY_WINDOWS, s.windows())
          .addAll(
              s.extendsHold()
                  ? new Args()
                      .add(Flags.STABILITY_PERCENT, s.percent())
                      .add(Flags.MAX_HOLD, s.maxHold())
                      .words()
                  : List.of())
          .add(Flags.WARMUP, spec.warmup())
          .add(Flags.RUNS, spec.runs())
          .when(!spec.refine(), Flags.NO_REFINE)
          .add(Flags.DRIFT_CHECK, spec.drift().mode().label())
          .add(Flags.DRIFT_TOLERANCE, spec.drift().throughputTolerancePct())
          .add(Flags.DRIFT_P95_TOLERANCE, spec.drift().p95TolerancePct())
          .add(Flags.DRIFT_REWARM_BUDGET, spec.drift().rewarmBudget())
          .words();
    }
  }

  /**
   * What the run refuses or adds.
   *
   * @param idleRung whether the open-loop idle-start rung follows the ladder ({@link IdleRung})
   * @param allowUnenforcedCpu measure even when the instance type's CPU limit is not in force, and
   *     record it as not enforced
   * @param settleTimeout how long pinning capacity may take; {@link #PLATFORM_SETTLE} derives it
   *     from the platform ({@link Timeouts#settle(dev.speechscale.platform.Physics)})
   */
  public record Checks(boolean idleRung, boolean allowUnenforcedCpu, Duration settleTimeout) {
    /** Pinning capacity may take as long as the platform's start-up bound. */
    public static final Duration PLATFORM_SETTLE = Duration.ZERO;

    /** The checks with the platform's settle bound. */
    public Checks(boolean idleRung, boolean allowUnenforcedCpu) {
      this(idleRung, allowUnenforcedCpu, PLATFORM_SETTLE);
    }

    List<String> arguments() {
      return new Args()
          .when(!idleRung, Flags.NO_IDLE_RUNG)
          .when(allowUnenforcedCpu, Flags.ALLOW_UNENFORCED_CPU)
          .words();
    }
  }

  /** The arguments that run this request again, after {@code tts-bench qmax}. */
  public List<String> arguments() {
    return new Args()
        .addAll(target.arguments())
        .addAll(load.arguments())
        .addAll(ladder.arguments())
        .addAll(checks.arguments())
        .words();
  }

  /** {@code tts-bench qmax} with {@link #arguments()}. */
  public String commandLine() {
    return "tts-bench qmax " + String.join(" ", arguments());
  }

  /** The run's parameters, as the artifact records them. */
  public Map<String, Object> parameters() {
    LadderSpec spec = ladder.spec();
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", target.model());
    params.put("platform", target.platform());
    params.put("transport", load.transport().label());
    params.put("slo_ms", spec.sloMs());
    params.put("rungs", spec.rungs());
    params.put("hold_s", seconds(spec.hold()));
    params.put("window_s", seconds(spec.window()));
    params.put("settle_s", seconds(spec.settle()));
    params.put("stability_windows", spec.stability().windows());
    if (spec.stability().extendsHold()) {
      params.put("stability_percent", spec.stability().percent());
      params.put("max_hold_s", seconds(spec.stability().maxHold()));
    }
    params.put("ladder_defaults", ladder.defaults());
    params.put("warmup_s", seconds(spec.warmup()));
    params.put("runs", spec.runs());
    params.put("refine", spec.refine());
    params.put("drift_check", spec.drift().mode().label());
    params.put("drift_tolerance_pct", spec.drift().throughputTolerancePct());
    params.put("drift_p95_tolerance_pct", spec.drift().p95TolerancePct());
    params.put("drift_rewarm_budget_s", seconds(spec.drift().rewarmBudget()));
    params.put("drift_host_tolerance_pct", spec.drift().hostTolerancePct());
    params.put("allow_unenforced_cpu", checks.allowUnenforcedCpu());
    params.put("seed", load.seed());
    params.put("texts", load.texts() == null ? BUILT_IN_TEXTS : load.texts().toString());
    return params;
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }
}
