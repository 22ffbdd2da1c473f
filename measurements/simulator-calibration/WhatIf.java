import dev.speechscale.artifacts.ArtifactCodec;
import dev.speechscale.artifacts.QmaxArtifact;
import dev.speechscale.simulator.*;
import java.nio.file.*;
import java.time.Duration;

/** What-if runs of the simulator for run 2: pre-roll history, live start-up delay. */
public class WhatIf {
  public static void main(String[] a) throws Exception {
    Path q = Path.of(a[0]);
    double startup = Double.parseDouble(a[1]);
    int preroll = Integer.parseInt(a[2]);
    double quiet = Double.parseDouble(a[3]), surge = Double.parseDouble(a[4]);
    QmaxArtifact qa = ArtifactCodec.readQmax(q);
    InstanceModel m = InstanceModel.fromMeasurement(qa.measurement(q.toString()), 10, Duration.ofSeconds(56), Duration.ofMillis(Math.round(startup*1000)));
    String csv = "time_s,rps\n" + (preroll > 0 ? "0,0\n" : "") + preroll + "," + quiet + "\n" + (preroll+60) + "," + surge + "\n" + (preroll+210) + "," + quiet + "\n" + (preroll+360) + ",0\n";
    Traffic t = Traffic.csv("whatif.csv", () -> csv.lines());
    Policy p = new Policy.Planned(1, 2, 7.5, 5.001, Duration.ofSeconds(30), Duration.ofSeconds(427));
    PolicyResult r = FleetSimulator.run(m, t, p, new FleetSimulator.Options(1000, Duration.ZERO, a.length > 5 ? Long.parseLong(a[5]) : 1), Progress.none());
    System.out.printf("startup %.1f s, preroll %d s: shed %.2f %%, X_sat %.2f%n", startup, preroll, 100*r.shedFraction(), m.saturatedPerSecond());
    for (PolicyResult.ScalingEvent e : r.events()) System.out.printf("  %d->%d decided %d s in service %s  (%s)%n", e.from(), e.to(), e.decidedAtSeconds() - preroll, e.inServiceAtSeconds().isPresent() ? (e.inServiceAtSeconds().getAsLong()-preroll)+" s" : "-", e.cause().length() > 60 ? e.cause().substring(0,60) : e.cause());
    for (PolicyResult.Minute mm : r.minutes()) if (mm.minute()*60 >= preroll) System.out.printf("  min %d p95 %.0f ms shed %d in-service %.2f%n", mm.minute()-preroll/60, mm.ttfabP95Ms(), mm.shed(), mm.meanInService());
  }
}
