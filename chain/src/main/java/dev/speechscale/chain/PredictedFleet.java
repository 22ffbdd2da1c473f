package dev.speechscale.chain;

import dev.speechscale.simulator.PolicyResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The simulated fleet's instance counts per second, rebuilt from a policy's scaling events: a
 * scale-out adds starting instances that enter service at the event's in-service time; a scale-in
 * removes starting instances first (as the simulator does), then instances in service.
 *
 * @param inService instances in service at the end of each second
 * @param desired the desired count at the end of each second
 */
record PredictedFleet(List<Integer> inService, List<Integer> desired) {

  PredictedFleet {
    inService = List.copyOf(inService);
    desired = List.copyOf(desired);
  }

  static PredictedFleet of(List<PolicyResult.ScalingEvent> events, int initial, int seconds) {
    List<Integer> inService = new ArrayList<>();
    List<Integer> desired = new ArrayList<>();
    List<PolicyResult.ScalingEvent> arrivals =
        events.stream()
            .filter(e -> e.to() > e.from() && e.inServiceAtSeconds().isPresent())
            .sorted(
                Comparator.comparingLong(
                    (PolicyResult.ScalingEvent e) -> e.inServiceAtSeconds().getAsLong()))
            .toList();
    int in = initial;
    int starting = 0;
    int want = initial;
    int nextDecision = 0;
    int nextArrival = 0;
    for (int s = 0; s < seconds; s++) {
      while (true) {
        boolean arrival =
            nextArrival < arrivals.size()
                && arrivals.get(nextArrival).inServiceAtSeconds().getAsLong() < s + 1;
        boolean decision =
            nextDecision < events.size() && events.get(nextDecision).decidedAtSeconds() < s + 1;
        if (arrival
            && (!decision
                || arrivals.get(nextArrival).inServiceAtSeconds().getAsLong()
                    <= events.get(nextDecision).decidedAtSeconds())) {
          PolicyResult.ScalingEvent e = arrivals.get(nextArrival++);
          int n = Math.min(starting, e.to() - e.from());
          starting -= n;
          in += n;
        } else if (decision) {
          PolicyResult.ScalingEvent e = events.get(nextDecision++);
          want = e.to();
          if (e.to() > e.from()) {
            starting += e.to() - e.from();
          } else {
            int excess = e.from() - e.to();
            int cancelled = Math.min(starting, excess);
            starting -= cancelled;
            in -= excess - cancelled;
          }
        } else {
          break;
        }
      }
      inService.add(Math.max(0, in));
      desired.add(want);
    }
    return new PredictedFleet(inService, desired);
  }
}
