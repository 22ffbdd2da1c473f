package dev.speechscale.chain;

import dev.speechscale.simulator.Frontier;
import dev.speechscale.simulator.Outcome;
import dev.speechscale.simulator.PolicySearch;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The table {@code search} prints: the frontier, the finalists and the held-out day. */
public final class SearchSummary {
  private SearchSummary() {}

  /** The summary of {@code r}. */
  public static String render(PolicySearch.Result r, SearchPlan.Record rec) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "search: goal %s; fitted on %s (seed %d), held out: seed %d, shifted %+d s%n",
            rec.goal().describe(),
            rec.trace(),
            rec.seed(),
            rec.heldOutSeed(),
            rec.heldOutShiftSeconds()));
    sb.append(
        String.format(
            Locale.ROOT,
            "screened %d candidates and %d rivals on a fleet 1/%d the size; confirmed %d in full"
                + " (those within the screening margin of the goal, cheapest first); margin %s%n%n",
            r.tried().size(),
            r.rivalsScreened().size(),
            rec.scale(),
            r.finalists().size(),
            r.margin().describe()));
    sb.append(
        "frontier (fitted day, screened; what can be deployed): instance-hours against SLO"
            + " attainment\n");
    sb.append(String.format(Locale.ROOT, "  %-12s %10s %9s%n", "point", "inst-h", "SLO ok"));
    for (Frontier.Point p : r.frontier()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-12s %10.1f %8.3f%%%n",
              p.name(),
              p.instanceHours(),
              p.attainment() * 100));
    }
    sb.append("rivals against the frontier (screened):\n");
    for (Map.Entry<String, Outcome> e : r.rivalsScreened().entrySet()) {
      Outcome o = e.getValue();
      Optional<Frontier.Point> f = Frontier.cheapestReaching(r.frontier(), o.attainment());
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-12s %10.1f %8.3f%%  %s%n",
              e.getKey(),
              o.instanceHours(),
              o.attainment() * 100,
              f.map(p ->
                      p.name().equals(e.getKey())
                          ? "on the frontier"
                          : String.format(
                              Locale.ROOT,
                              "the frontier reaches it at %.1f inst-h (%s)",
                              p.instanceHours(),
                              p.name()))
                  .orElse("above every deployable point's attainment")));
    }
    sb.append("\nfinalists (fitted day, full simulation):\n");
    header(sb);
    for (PolicySearch.Compared c : r.finalists()) {
      row(sb, c.name(), "yes", c.full());
    }
    sb.append("\nheld-out day (full simulation):\n");
    header(sb);
    for (PolicySearch.Compared c : r.heldOut()) {
      row(sb, c.name(), c.deployable() ? "yes" : "no*", c.full());
    }
    for (PolicySearch.Compared c : r.heldOut()) {
      if (!c.deployable()) {
        sb.append("  * ").append(c.name()).append(": ").append(c.notDeployable()).append('\n');
      }
    }
    sb.append("\nscreening error against the full simulation (same trace, same seed):\n");
    List<PolicySearch.Compared> all =
        java.util.stream.Stream.concat(r.finalists().stream(), r.heldOut().stream()).toList();
    for (int i = 0; i < all.size(); i++) {
      PolicySearch.Compared c = all.get(i);
      String label = c.name() + (i < r.finalists().size() ? " (fitted)" : " (held out)");
      Outcome s = c.screened();
      Outcome f = c.full();
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-24s inst-h %+6.1f%%  SLO %+7.3f pt  shed %+7.3f pt%n",
              label,
              (s.instanceHours() / f.instanceHours() - 1) * 100,
              (s.attainment() - f.attainment()) * 100,
              (s.shed() - f.shed()) * 100));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "%nrecommended: %s%s%n  %s%n",
            r.recommended(),
            r.meetsGoal() ? "" : " (NO finalist met the goal on the fitted day: the closest)",
            r.recommendation().description()));
    return sb.toString();
  }

  private static void header(StringBuilder sb) {
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-12s %4s %9s %7s %8s %8s %9s %8s %8s%n",
            "policy",
            "dpl",
            "SLO ok",
            "shed",
            "p95 ms",
            "p99 ms",
            "inst-h",
            "out/in",
            "at max"));
  }

  private static void row(StringBuilder sb, String name, String deployable, Outcome o) {
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-12s %4s %8.3f%% %6.3f%% %8.1f %8.1f %9.1f %8s %7.1fm%n",
            name,
            deployable,
            o.attainment() * 100,
            o.shed() * 100,
            o.p95Ms(),
            o.p99Ms(),
            o.instanceHours(),
            o.scaleOuts() + "/" + o.scaleIns(),
            o.minutesAtMax()));
  }
}
