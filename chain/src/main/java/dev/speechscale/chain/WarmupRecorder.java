package dev.speechscale.chain;

import dev.speechscale.artifacts.WarmupRamp;
import dev.speechscale.loadgen.RequestEvent;
import dev.speechscale.loadgen.RequestListener;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the service time of every successful warm-up request (response time less the server's queue
 * wait, from its {@code X-Queue-Wait-Us}) for the qmax artifact's {@code warmup_ramp}. A request
 * whose response did not say its queue wait makes the ramp unknowable (a closed loop at N on a
 * serial engine would read N × the service time): then there is none.
 */
final class WarmupRecorder implements RequestListener {
  private record Served(long completedNanos, double serviceS) {}

  private final List<Served> served = new ArrayList<>();
  private boolean unknowable;
  private int concurrency;

  @Override
  public synchronized void completed(RequestEvent e) {
    if (!e.ok()) {
      return;
    }
    concurrency = e.concurrency();
    if (!e.breakdown().hasQueueWait()) {
      unknowable = true;
      return;
    }
    double responseS = (e.completedNanos() - e.sentNanos()) / 1e9;
    served.add(new Served(e.completedNanos(), responseS - e.breakdown().queueWaitUs() / 1e6));
  }

  /** The ramp, or null with no warm-up or a response that did not say its queue wait. */
  synchronized @Nullable WarmupRamp ramp() {
    if (unknowable || served.isEmpty()) {
      return null;
    }
    double[] s =
        served.stream()
            .sorted(Comparator.comparingLong(Served::completedNanos))
            .mapToDouble(Served::serviceS)
            .toArray();
    return WarmupRamp.of(concurrency, s);
  }
}
