import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.FirstByteEvidences;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.capacity.Ladder;
import dev.speechscale.capacity.Measurement;
import dev.speechscale.scaling.ScalingRules;
import dev.speechscale.simulator.*;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;

/**
 * The replay's prediction for a recorded run, re-made from its own inputs (qmax, the deployed rules,
 * the start-up delay, the calibration trace, the seed) with the instance model before and after the
 * first-byte and X_sat changes. Usage: java -cp <classpath> ModelWhatIf.java RUN_DIR QMAX TARGET
 * SCALE_IN OUT_COOLDOWN_S IN_COOLDOWN_S QUEUE STARTUP_S[,STARTUP_S...] SEED [X_C_SCALE_MAX]
 */
public class ModelWhatIf {
  public static void main(String[] a) throws Exception {
    Path dir = Path.of(a[0]);
    Path qf = dir.resolve(a[1]);
    double target = Double.parseDouble(a[2]), scaleIn = Double.parseDouble(a[3]);
    int outCd = Integer.parseInt(a[4]), inCd = Integer.parseInt(a[5]), queue = Integer.parseInt(a[6]);
    List<Duration> startups = Arrays.stream(a[7].split(",")).map(x -> Duration.ofMillis(Math.round(Double.parseDouble(x) * 1000))).toList();
    long seed = Long.parseLong(a[8]);
    QmaxArtifact q = ArtifactCodec.readQmax(qf);
    Measurement m = q.measurement(qf.toString());
    Duration deadline = Duration.ofSeconds(56);
    StartupDelays delays = new StartupDelays(startups);
    // before: X_sat the single best rung, first byte a fixed share of S (the model of runs 1-4)
    Ladder ladder = m.ladder();
    double peak = ladder.throughputCurve().peak().getAsDouble();
    double sMean = m.serviceTimes().meanSeconds();
    int slots = (int) Math.max(1, Math.round(peak * sMean));
    Ladder.ServiceTime st = ladder.serviceTime().orElseThrow();
    double ratio = Math.min(1.0, st.ttfabP95Ms() / 1000.0 / st.p95Seconds());
    InstanceModel before = new InstanceModel(slots, m.serviceTimes(), slots / (peak * sMean), new FirstByte.Proportional(ratio), queue, deadline, delays, "before");
    InstanceModel after = InstanceModel.fromMeasurement(m, FirstByteEvidences.of(q), queue, deadline, delays);
    InstanceModel plateauOnly = new InstanceModel(after.slots(), m.serviceTimes(), after.occupancyScale(), new FirstByte.Proportional(ratio), queue, deadline, delays, "plateau only");
    InstanceModel firstByteOnly = new InstanceModel(slots, m.serviceTimes(), slots / (peak * sMean), after.firstByte(), queue, deadline, delays, "first byte only");
    System.out.println("after: " + after.derivation());
    // optional: X_sat from the plan's X(C_scale_max) instead of the plateau (the alternative issue 14 named)
    InstanceModel afterXc = null;
    if (a.length > 9) {
      double xc = Double.parseDouble(a[9]);
      int s2 = (int) Math.max(1, Math.round(xc * sMean));
      afterXc = new InstanceModel(s2, m.serviceTimes(), s2 / (xc * sMean), after.firstByte(), queue, deadline, delays, "xc");
    }
    String csv = Files.readString(dir.resolve("trace-calibration-cal.csv"));
    Traffic t = Traffic.csv("trace-calibration-cal.csv", () -> csv.lines());
    Policy p = new Policy.Rules("deployed", ScalingRules.planned(target, scaleIn, 1, 2, Duration.ofSeconds(outCd), Duration.ofSeconds(inCd)));
    FleetSimulator.Options o = new FleetSimulator.Options(1000, Duration.ZERO, seed, new FleetSimulator.PreRoll.Window());
    final InstanceModel xcRow = afterXc;
    for (var e : new LinkedHashMap<String, InstanceModel>() {{ put("before (runs 1-4)", before); put("X_sat plateau only", plateauOnly); put("first byte by in-flight only", firstByteOnly); put("after (both)", after); if (xcRow != null) put("after, X_sat = plan X(C_scale_max)", xcRow); }}.entrySet()) {
      PolicyResult r = FleetSimulator.run(e.getValue(), t, p, o, Progress.none());
      StringBuilder b = new StringBuilder();
      for (PolicyResult.Minute mm : r.minutes()) b.append(String.format(Locale.ROOT, " %.1f", mm.ttfabP95Ms()));
      String surge = r.events().stream().filter(x -> x.to() > x.from() && x.inServiceAtSeconds().isPresent()).map(x -> (x.inServiceAtSeconds().getAsLong() - 60) + " s").findFirst().orElse("-");
      System.out.printf(Locale.ROOT, "%-30s X_sat %.2f  shed %.2f %%  surge->in service %s  p95 per minute ms:%s%n", e.getKey(), e.getValue().saturatedPerSecond(), 100 * r.shedFraction(), surge, b);
    }
  }
}
