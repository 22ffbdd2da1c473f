package dev.speechscale.chain;

import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.platform.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One {@code validate}, as {@code tts-bench validate} parses it and {@code quickstart} builds it:
 * the artifact's parameters and the command line that runs it again are read off the request.
 *
 * @param target the endpoint
 * @param plan the plan's file
 * @param live whether the load checks run too
 * @param load how they drive load
 */
public record ValidateRequest(Target target, Path plan, boolean live, Load load) {
  /**
   * How the live checks drive load.
   *
   * @param transport how each request is sent
   * @param phase how long each load phase runs
   * @param texts one request text per line, or {@code null} for the built-in sentences
   */
  public record Load(Transport transport, Duration phase, @Nullable Path texts) {}

  /** The arguments that run this request again, after {@code tts-bench validate}. */
  public List<String> arguments() {
    return new Args()
        .addAll(target.arguments())
        .add(Flags.PLAN, plan)
        .when(live, Flags.LIVE)
        .add(Flags.PHASE, load.phase())
        .add(Flags.TRANSPORT, load.transport().label())
        .optional(Flags.TEXTS, load.texts())
        .words();
  }

  /** {@code tts-bench validate} with {@link #arguments()}. */
  public String commandLine() {
    return "tts-bench validate " + String.join(" ", arguments());
  }

  /** The run's parameters, as the artifact records them. */
  public Map<String, Object> parameters() {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("model", target.model());
    params.put("plan", plan.toString());
    params.put("live", live);
    params.put("phase_s", load.phase().toMillis() / 1000.0);
    return params;
  }

  /** The run's options against the plan {@code p} read from {@link #plan()}. */
  public ValidateRun.Options options(PlanArtifact p) {
    return new ValidateRun.Options(
        target.model(),
        p,
        plan.toString(),
        live,
        new ValidateLoad(load.transport(), load.phase(), Texts.load(load.texts())),
        commandLine(),
        parameters());
  }
}
