import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.PlanArtifact;
import dev.speechscale.artifacts.PlanSaturation;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.artifacts.ReplayArtifact;
import dev.speechscale.artifacts.ScaleOutColdStart;
import dev.speechscale.artifacts.StartupDelaySamples;
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
 * [COLD=1] [REPLAY=replay-long.json TRACE=trace-long.csv] java -cp <classpath> RePredict.java RUN_DIR [REFUSAL_COST_MS [X_SAT]]
 * (a replay that recorded live.history_concurrency starts from that history, as replay did; one
 * whose live.warmup was applied takes X_sat = the plan's X(C_scale_max) x its ratio, unless X_SAT
 * is given)
 * (COLD=1: new instances start as cold as the qmax artifact's warmup_ramp says; COLD=ttotal: as
 * replay chooses, the ttotal artifact's new_instance where it has one; X_SAT: the
 * saturated throughput to use instead of the plan's X(C_scale_max))
 * (REFUSAL_COST_MS: seconds of the instance each refusal costs, in ms, as simulate's
 * --refusal-cost-ms; default none)
 * (a replay whose prediction applied the hosts' speed, live.host_speed_note "applied: ...", applies
 * it again: live.host_speed over live.host_speed_reference_cpu_ms; HOST_SPEED=off leaves it out,
 * HOST_SPEED=<ms> takes another reference; HOST_FILE=<file> takes per-second factors from a file,
 * as measurements/simulator-calibration/host-speed-2026-12-02/hostfile.py writes them; HOST_K=<k>
 * takes each factor f as 1 + k (f - 1): an instance k times as sensitive to its host as the probe)
 * (IDLE=<events.jsonl[.gz]>: the idle start measured from an earlier open-loop run's events, as
 * qmax's idle-start rung measures it; IDLE=off none; unset: the qmax artifact's rung, if any)
 * (QMAX_FILE=<file>: that qmax artifact instead of the replay's; a qmax whose usable steps all have
 * host_cpu_ms is brought to its median host speed and X_sat read from it at C_scale_max, as replay
 * does; AS_MEASURED=1 takes its rungs as measured)
 */
public class RePredict {
  /** The curve X_sat is read from when the rungs were brought to one host speed, else null. */
  static dev.speechscale.capacity.ThroughputCurve rungX;

  /** X_sat: the argument, else the warm-up's applied speed, else the plan's point. */
  static InstanceModel.Saturation saturation(String[] a, PlanArtifact plan, JsonNode r) {
    InstanceModel.Saturation.PlanPoint p = (InstanceModel.Saturation.PlanPoint) PlanSaturation.of(plan);
    if (rungX != null) p = new InstanceModel.Saturation.PlanPoint(p.cScaleMax(), rungX.at(p.cScaleMax()).orElseThrow());
    if (a.length > 2) {
      return new InstanceModel.Saturation.PlanPoint(p.cScaleMax(), Double.parseDouble(a[2]));
    }
    JsonNode w = r.get("live").get("warmup");
    if (w != null && w.get("applied").asBoolean()) {
      return new InstanceModel.Saturation.Given(p.perSecond() * w.get("ratio").asDouble(), w.get("note").asString());
    }
    return p;
  }

  /** The idle start an open-loop events log shows, as qmax's idle-start rung would measure it. */
  static IdleStart idleFromEvents(Path file) throws Exception {
    java.io.InputStream in = Files.newInputStream(file);
    if (file.toString().endsWith(".gz")) in = new java.util.zip.GZIPInputStream(in);
    List<dev.speechscale.artifacts.IdleStartRung.Served> served = new ArrayList<>();
    ObjectMapper m = new ObjectMapper();
    try (var br = new java.io.BufferedReader(new java.io.InputStreamReader(in))) {
      for (String line; (line = br.readLine()) != null; ) {
        JsonNode e = m.readTree(line);
        if (!e.get("outcome").asString().equals("OK") || !e.get("load_model").asString().equals("open-loop")) continue;
        double lag = e.get("send_lag_ms").asDouble();
        served.add(new dev.speechscale.artifacts.IdleStartRung.Served(
            e.get("queue_wait_ms").asDouble(), e.get("latency_ms").asDouble() - lag, e.get("ttfab_ms").asDouble() - lag));
      }
    }
    var rung = dev.speechscale.artifacts.IdleStartRung.of(0, 0, 0, served);
    System.out.println("idle start from " + file + ": " + rung.summary());
    return rung.idleStart(file.getFileName().toString()).orElse(IdleStart.NONE);
  }

  /** The recorded live history when the replay kept one, else its simulated pre-roll's length. */
  static FleetSimulator.PreRoll preRoll(JsonNode r) {
    JsonNode h = r.get("live").get("history_concurrency");
    if (h != null) {
      List<Double> c = new ArrayList<>();
      for (JsonNode v : h) c.add(v.isNull() ? Double.NaN : v.asDouble());
      return new FleetSimulator.PreRoll.Recorded(c, "live.history_concurrency");
    }
    return new FleetSimulator.PreRoll.Fixed(
        Duration.ofSeconds(Math.round(r.get("physics").get("pre_roll_s").asDouble())));
  }

  /** The hosts' speed the recorded prediction applied, or none (see the class comment). */
  static HostSpeeds hostSpeeds(Path replay) throws java.io.IOException {
    String file = System.getenv("HOST_FILE"); // "<second> <factor host 0> <factor host 1> ..." lines
    if (file != null) {
      List<String> lines = Files.readAllLines(Path.of(file));
      int hosts = lines.get(0).trim().split("\\s+").length - 1;
      List<double[]> f = new ArrayList<>();
      for (int h = 0; h < hosts; h++) f.add(new double[lines.size()]);
      for (int i = 0; i < lines.size(); i++) {
        String[] x = lines.get(i).trim().split("\\s+");
        for (int h = 0; h < hosts; h++) f.get(h)[i] = Double.parseDouble(x[h + 1]);
      }
      return new HostSpeeds(f, file);
    }
    String how = System.getenv().getOrDefault("HOST_SPEED", "recorded");
    ReplayArtifact.Live live = ArtifactCodec.readReplay(replay).live();
    if (how.equals("off") || live.hostSpeed() == null || live.hostSpeedReferenceCpuMs() == null) {
      return HostSpeeds.NONE;
    }
    if (how.equals("recorded")) {
      String note = live.hostSpeedNote();
      return note != null && note.startsWith("applied")
          ? elastic(live.hostSpeed().factors(live.hostSpeedReferenceCpuMs(), "live.host_speed"))
          : HostSpeeds.NONE;
    }
    return elastic(
        live.hostSpeed().factors(Double.parseDouble(how), "live.host_speed, reference " + how));
  }

  /** HOST_K=k: each factor f taken as 1 + k (f - 1), the instance k times as sensitive as the probe. */
  static HostSpeeds elastic(HostSpeeds h) {
    String k = System.getenv("HOST_K");
    if (k == null || h.none()) return h;
    double kk = Double.parseDouble(k);
    List<double[]> out = new ArrayList<>();
    for (double[] f : h.factorsBySecond()) {
      double[] g = new double[f.length];
      for (int i = 0; i < f.length; i++) g[i] = 1 + kk * (f[i] - 1);
      out.add(g);
    }
    return new HostSpeeds(out, h.firstHost(), h.nextHost(), h.source() + ", k " + k);
  }

  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]);
    JsonNode r = new ObjectMapper().readTree(
        dir.resolve(System.getenv().getOrDefault("REPLAY", "replay-quickstart.json")).toFile());
    Path qf = dir.resolve(Path.of(r.get("inputs").get("qmax").asString()).getFileName());
    Path pf = dir.resolve(Path.of(r.get("inputs").get("plan").asString()).getFileName());
    JsonNode ph = r.get("physics");
    // QMAX_FILE: another qmax artifact (e.g. a recorded one with host_cpu_ms added to its steps)
    if (System.getenv("QMAX_FILE") != null) qf = Path.of(System.getenv("QMAX_FILE"));
    QmaxArtifact q = ArtifactCodec.readQmax(qf);
    // as replay does: rungs that each recorded their host's speed are brought to the median's
    QmaxArtifact.HostSpeedReference ref = q.hostSpeedReference();
    boolean atOneSpeed = ref != null && ref.perRung() && !"1".equals(System.getenv("AS_MEASURED"));
    if (atOneSpeed) q = q.atHostSpeed(ref.cpuMs());
    PlanArtifact plan = ArtifactCodec.readPlan(pf);
    String derivation = ph.get("instance_model").asString();
    int queue = Integer.parseInt(derivation.replaceAll(".*queue_max_depth (\\d+);.*", "$1"));
    StartupDelays delays =
        new StartupDelays(List.of(Duration.ofNanos(Math.round(ph.get("startup_delay_s").asDouble() * 1e9))));
    if (atOneSpeed) rungX = q.ladder().throughputCurve();
    InstanceModel model =
        InstanceModel.fromMeasurement(
            q.measurement(qf.toString()), FirstByteEvidences.of(q), saturation(a, plan, r),
            queue, Duration.ofSeconds(56), delays);
    if ("1".equals(System.getenv("COLD"))) { // the qmax warm-up's cold start for new instances
      model = model.withColdStart(q.coldStart(qf.toString()));
    } else if ("ttotal".equals(System.getenv("COLD"))) { // as replay chooses (builds from 2026-12-04)
      Path tf = dir.resolve(Path.of(r.get("inputs").get("ttotal").asString()).getFileName());
      model = model.withColdStart(ScaleOutColdStart.of(
          List.of(new StartupDelaySamples.Input(ArtifactCodec.readTtotal(tf), tf.toString())), q, qf.toString()));
    }
    // TAIL=<factor>:<until request>: a slower tail after the cold start's last step (a hypothesis
    // test: a fresh instance under open-loop traffic keeps a few per cent for minutes)
    String tail = System.getenv("TAIL");
    if (tail != null) {
      ColdStart cs = model.coldStart();
      var steps = new java.util.ArrayList<>(cs.steps());
      steps.add(new ColdStart.Step(Integer.parseInt(tail.split(":")[1]), Double.parseDouble(tail.split(":")[0])));
      model = model.withColdStart(new ColdStart(steps, cs.source() + ", tail " + tail));
    }
    // RAMP=<until>:<factor>,...: the cold start's steps replaced by these (a hypothesis test)
    String ramp = System.getenv("RAMP");
    if (ramp != null) {
      var steps = new java.util.ArrayList<ColdStart.Step>();
      for (String st : ramp.split(",")) {
        steps.add(new ColdStart.Step(Integer.parseInt(st.split(":")[0]), Double.parseDouble(st.split(":")[1])));
      }
      model = model.withColdStart(new ColdStart(steps, "RAMP " + ramp));
    }
    System.out.println("cold start: " + model.coldStart().steps());
    // the idle start: the qmax artifact's open-loop rung, or IDLE=<events.jsonl[.gz]> of an earlier
    // open-loop run (a replay's --events), measured as qmax's rung measures it; IDLE=off for none
    String idle = System.getenv("IDLE");
    if (idle == null) {
      model = model.withIdleStart(q.idleStartFactors(qf.toString()));
    } else if (!idle.equals("off")) {
      model = model.withIdleStart(idleFromEvents(Path.of(idle)));
    }
    System.out.println("idle start: " + model.idleStart());
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
    Path trace = dir.resolve(System.getenv().getOrDefault("TRACE", "trace-calibration.csv"));
    Traffic traffic = Traffic.csv(trace.toString(), () -> {
      try { return Files.lines(trace); } catch (java.io.IOException e) { throw new RuntimeException(e); }
    });
    FleetSimulator.Options o =
        new FleetSimulator.Options(plan.endpointConfig().ttfabSloMs(), Duration.ZERO,
            r.get("seed").asLong(),
            preRoll(r));
    o = o.withHostSpeeds(hostSpeeds(dir.resolve(
        System.getenv().getOrDefault("REPLAY", "replay-quickstart.json"))));
    // INITIAL_SERVED=<n>: the initial instance has served n requests (its warm-up) and goes on
    // along the cold start from there; "recorded": as the replay recorded it (live.warmup's
    // requests_total, builds from 2026-12-04 evening); unset: as the replay's prediction did
    String init = System.getenv("INITIAL_SERVED");
    JsonNode wu = r.get("live").get("warmup");
    long recordedInit = wu != null && wu.get("initial_served") != null ? wu.get("initial_served").asLong() : -1;
    if (init == null) {
      if (recordedInit >= 0) o = o.withInitialServed(recordedInit);
    } else if (init.equals("warmup2x")) { // the warm-up's second half twice (older replays)
      o = o.withInitialServed(2 * wu.get("requests").asLong());
    } else if (!init.equals("warm")) {
      o = o.withInitialServed(Long.parseLong(init));
    }
    PolicyResult p = FleetSimulator.run(model, traffic, policy, o, Progress.none());
    JsonNode rec = r.get("predicted");
    System.out.printf(Locale.ROOT, "%s%n  recorded prediction: shed %d / %d = %.2f %%%n",
        dir, rec.get("shed").asLong(), rec.get("arrivals").asLong(),
        100.0 * rec.get("shed").asLong() / rec.get("arrivals").asLong());
    System.out.printf(Locale.ROOT, "  this build%s: shed %d / %d = %.2f %%%n  model: %s%n",
        a.length > 1 ? " (refusal " + a[1] + " ms)" : "", p.shed(), p.arrived(),
        100.0 * p.shed() / p.arrived(), model.derivation());
    for (var e : p.events()) System.out.printf(Locale.ROOT, "  scaling %d s: %d -> %d%n", e.decidedAtSeconds(), e.from(), e.to());
    for (var m : p.minutes()) System.out.printf(Locale.ROOT, "  minute %d: p95 %.1f ms, shed %d%n", m.minute(), m.ttfabP95Ms(), m.shed());
  }
}
