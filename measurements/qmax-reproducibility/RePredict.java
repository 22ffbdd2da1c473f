import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.simulator.*;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;

/**
 * A recorded quickstart replay's prediction, re-made offline from its own inputs (the qmax and plan
 * artifacts, the deployed rules and start-up delay the replay artifact recorded, the calibration
 * trace, the seed) with the instance model of the build on the classpath. Prints the instance
 * model's derivation and the predicted shed. Usage:
 * [COLD=1] java -cp <classpath> RePredict.java RUN_DIR [REFUSAL_COST_MS [X_SAT]]
 * (COLD=1: new instances start as cold as the qmax artifact's warmup_ramp says; X_SAT: the
 * saturated throughput to use instead of the plan's X(C_scale_max))
 * (REFUSAL_COST_MS: seconds of the instance each refusal costs, in ms, as simulate's
 * --refusal-cost-ms; default none)
 */
public class RePredict {
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]);
    JsonNode r = new ObjectMapper().readTree(dir.resolve("replay-quickstart.json").toFile());
    Path qf = dir.resolve(Path.of(r.get("inputs").get("qmax").asString()).getFileName());
    Path pf = dir.resolve(Path.of(r.get("inputs").get("plan").asString()).getFileName());
    JsonNode ph = r.get("physics");
    QmaxArtifact q = ArtifactCodec.readQmax(qf);
    PlanArtifact plan = ArtifactCodec.readPlan(pf);
    String derivation = ph.get("instance_model").asString();
    int queue = Integer.parseInt(derivation.replaceAll(".*queue_max_depth (\\d+);.*", "$1"));
    StartupDelays delays =
        new StartupDelays(List.of(Duration.ofNanos(Math.round(ph.get("startup_delay_s").asDouble() * 1e9))));
    InstanceModel model =
        InstanceModel.fromMeasurement(
            q.measurement(qf.toString()), FirstByteEvidences.of(q), (a.length > 2 ? new InstanceModel.Saturation.PlanPoint(((InstanceModel.Saturation.PlanPoint) PlanSaturation.of(plan)).cScaleMax(), Double.parseDouble(a[2])) : PlanSaturation.of(plan)),
            queue, Duration.ofSeconds(56), delays);
    if ("1".equals(System.getenv("COLD"))) { // the qmax warm-up's cold start for new instances
      model = model.withColdStart(q.coldStart(qf.toString()));
    }
    if (a.length > 1) {
      model = model.withRefusalCost(
          new RefusalCost(Double.parseDouble(a[1]) / 1000.0, "--refusal-cost-ms " + a[1]));
    }
    ScalingRules rules =
        ScalingRules.planned(
            ph.get("target_value").asDouble(), ph.get("scale_in_threshold").asDouble(),
            ph.get("min_instances").asInt(), ph.get("max_instances").asInt(),
            Duration.ofSeconds(ph.get("scale_out_cooldown_s").asInt()),
            Duration.ofSeconds(ph.get("scale_in_cooldown_s").asInt()));
    double ts = ph.get("time_scale").asDouble();
    Policy policy = new Policy.Rules("deployed", ts == 1 ? rules : rules.timeScaled(ts));
    Path trace = dir.resolve("trace-calibration.csv");
    Traffic traffic = Traffic.csv(trace.toString(), () -> {
      try { return Files.lines(trace); } catch (java.io.IOException e) { throw new RuntimeException(e); }
    });
    FleetSimulator.Options o =
        new FleetSimulator.Options(plan.endpointConfig().ttfabSloMs(), Duration.ZERO,
            r.get("seed").asLong(),
            new FleetSimulator.PreRoll.Fixed(Duration.ofSeconds(Math.round(ph.get("pre_roll_s").asDouble()))));
    PolicyResult p = FleetSimulator.run(model, traffic, policy, o, Progress.none());
    JsonNode rec = r.get("predicted");
    System.out.printf(Locale.ROOT, "%s%n  recorded prediction: shed %d / %d = %.2f %%%n",
        dir, rec.get("shed").asLong(), rec.get("arrivals").asLong(),
        100.0 * rec.get("shed").asLong() / rec.get("arrivals").asLong());
    System.out.printf(Locale.ROOT, "  this build%s: shed %d / %d = %.2f %%%n  model: %s%n",
        a.length > 1 ? " (refusal " + a[1] + " ms)" : "", p.shed(), p.arrived(),
        100.0 * p.shed() / p.arrived(), model.derivation());
    for (var m : p.minutes()) System.out.printf(Locale.ROOT, "  minute %d: p95 %.1f ms, shed %d%n", m.minute(), m.ttfabP95Ms(), m.shed());
  }
}
