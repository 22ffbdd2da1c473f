package dev.speechscale.artifacts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.speechscale.simulator.ColdStart;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The ttotal artifact's view of the instance its scale-out started (additive, {@code
 * new_instance}): window by window since it went in service, its mean service time against the
 * instance that served before the scale-out, in the same window. The probe keeps running at least
 * {@code --new-instance-for} (60 s) past in service, and the platform names the instance that
 * served each response (the local router's {@code X-Speechscale-Instance}); where it does not
 * (SageMaker's runtime) there is no such field.
 *
 * <p>Service time is the response time less the server's queue wait. Both instances serve the same
 * closed-loop probe back to back, so the ratio keeps only what differs between them: the new one's
 * cold start and, when they run on different hosts, the hosts' speeds (the local platform pins them
 * round robin to the cores), which {@link #withHosts} divides out when the platform's host probe
 * ran across the scale-out. {@link #coldStart} turns them into the simulator's cold start, each
 * window's factor for the requests the new instance started in it ({@link ColdStart#fromWindows}):
 * a window's factor is given only when each instance served at least {@value #MIN_REQUESTS}
 * requests in it.
 *
 * @param windowSeconds each window's length
 * @param oldInstances the instances that served before the scale-out
 * @param newInstance the instance that did not, or {@code null} when no response named one
 * @param windows from in service, in order; only windows the probe covered to their end
 * @param note what a reader should know ({@code null} when nothing)
 */
public record NewInstanceService(
    double windowSeconds,
    List<String> oldInstances,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String newInstance,
    List<Window> windows,
    @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String note) {

  /** Window length, seconds: short enough to see a ~45 s cold start, long enough for means. */
  public static final double WINDOW_SECONDS = 15;

  /** Fewest requests of each instance in a window for its factor. */
  public static final int MIN_REQUESTS = 5;

  public NewInstanceService {
    oldInstances = oldInstances == null ? List.of() : List.copyOf(oldInstances);
    windows = windows == null ? List.of() : List.copyOf(windows);
  }

  /**
   * One window.
   *
   * @param fromS its start, seconds after in service
   * @param untilS its end
   * @param newRequests requests the new instance started in it
   * @param oldRequests requests the old instances started in it
   * @param newServiceMs the new instance's mean service time ({@code null} with no request)
   * @param oldServiceMs the old instances' mean service time ({@code null} with no request)
   * @param factor new over old, or {@code null} when either served fewer than {@value
   *     #MIN_REQUESTS}; divided by {@code hostRatio} when there is one
   * @param hostRatio how much slower the new instance's host ran than the old one's in the window
   *     (the platform's host probe, {@link HostSpeedLog#nextOverInService}), or {@code null} when
   *     the hosts were not probed: the simulator applies each instance's host speed itself, so the
   *     cold start must not carry it
   */
  public record Window(
      double fromS,
      double untilS,
      int newRequests,
      int oldRequests,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double newServiceMs,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double oldServiceMs,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double factor,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double hostRatio) {}

  /** Fewest seconds of each host's probe in a window for its host ratio. */
  public static final int MIN_HOST_SECONDS = 5;

  /**
   * One probe request whose response named its instance.
   *
   * @param startS when it was sent, seconds after in service (negative: before)
   * @param instance the instance that served it
   * @param serviceMs its response time less the server's queue wait
   * @param beforeScaleOut sent before the desired count was raised
   */
  public record Served(double startS, String instance, double serviceMs, boolean beforeScaleOut) {}

  /**
   * The windows the probe's requests give, up to {@code coveredS} seconds after in service (the
   * last window ends at or before it). Requests that name no instance are not passed in.
   */
  public static NewInstanceService of(List<Served> served, double coveredS) {
    Set<String> old = new LinkedHashSet<>();
    for (Served s : served) {
      if (s.beforeScaleOut()) {
        old.add(s.instance());
      }
    }
    String fresh = null;
    for (Served s : served) {
      if (!s.beforeScaleOut() && !old.contains(s.instance())) {
        fresh = s.instance();
        break;
      }
    }
    if (old.isEmpty() || fresh == null) {
      return new NewInstanceService(
          WINDOW_SECONDS,
          List.copyOf(old),
          fresh,
          List.of(),
          old.isEmpty()
              ? "no probe response before the scale-out named its instance"
              : "no probe response after the scale-out came from a new instance");
    }
    int count = Math.max(0, (int) Math.floor(coveredS / WINDOW_SECONDS + 1e-9));
    double[] newSum = new double[count];
    double[] oldSum = new double[count];
    int[] newN = new int[count];
    int[] oldN = new int[count];
    for (Served s : served) {
      if (s.startS() < 0 || s.beforeScaleOut()) {
        continue;
      }
      int w = (int) Math.floor(s.startS() / WINDOW_SECONDS);
      if (w >= count) {
        continue;
      }
      if (s.instance().equals(fresh)) {
        newSum[w] += s.serviceMs();
        newN[w]++;
      } else if (old.contains(s.instance())) {
        oldSum[w] += s.serviceMs();
        oldN[w]++;
      }
    }
    List<Window> windows = new ArrayList<>();
    for (int w = 0; w < count; w++) {
      windows.add(window(w, newN[w], oldN[w], newSum[w], oldSum[w], null));
    }
    return new NewInstanceService(WINDOW_SECONDS, List.copyOf(old), fresh, windows, null);
  }

  /**
   * These windows with the hosts' speeds divided out: each window's {@code host_ratio} from {@code
   * log} (the platform's host probe, running across the scale-out so that its in-service host is
   * the old instance's and its next launch host the new one's), {@code inServiceEpochMs} the
   * instant the windows count from. A window without {@value #MIN_HOST_SECONDS} probed seconds of
   * each host keeps its factor as measured and no ratio.
   */
  public NewInstanceService withHosts(HostSpeedLog log, long inServiceEpochMs) {
    List<Window> out = new ArrayList<>();
    for (Window w : windows) {
      long from = inServiceEpochMs + Math.round(w.fromS() * 1000);
      long until = inServiceEpochMs + Math.round(w.untilS() * 1000) - 1;
      Double ratio = log.nextOverInService(from, until, MIN_HOST_SECONDS);
      Double factor = w.factor();
      if (factor != null && ratio != null) {
        factor = factor / ratio; // not a ternary: Double : double would unbox a null factor
      }
      out.add(
          new Window(
              w.fromS(),
              w.untilS(),
              w.newRequests(),
              w.oldRequests(),
              w.newServiceMs(),
              w.oldServiceMs(),
              factor,
              ratio));
    }
    return new NewInstanceService(windowSeconds, oldInstances, newInstance, out, note);
  }

  /**
   * One window from its sums; {@code hostRatio} (or {@code null}) divides the new instance's
   * measured mean for the factor.
   */
  private static Window window(
      int w, int newN, int oldN, double newSum, double oldSum, @Nullable Double hostRatio) {
    Double newMean = newN == 0 ? null : newSum / newN;
    Double oldMean = oldN == 0 ? null : oldSum / oldN;
    Double factor =
        newN >= MIN_REQUESTS && oldN >= MIN_REQUESTS && oldSum > 0
            ? (newSum / newN) / (oldSum / oldN) / (hostRatio == null ? 1 : hostRatio)
            : null;
    return new Window(
        w * WINDOW_SECONDS,
        (w + 1) * WINDOW_SECONDS,
        newN,
        oldN,
        newMean,
        oldMean,
        factor,
        hostRatio);
  }

  /**
   * Several scale-outs' windows pooled (the requests of window i in every run, means weighted by
   * their counts): what {@code ttotal --runs N} gives the simulator. Runs without windows add none;
   * with no run's windows, {@code null}.
   */
  public static @Nullable NewInstanceService pooled(List<NewInstanceService> runs) {
    List<NewInstanceService> with = runs.stream().filter(r -> !r.windows().isEmpty()).toList();
    if (with.isEmpty()) {
      return runs.isEmpty() ? null : runs.getFirst();
    }
    if (with.size() == 1) {
      return with.getFirst();
    }
    int count = with.stream().mapToInt(r -> r.windows().size()).max().orElse(0);
    List<Window> windows = new ArrayList<>();
    for (int w = 0; w < count; w++) {
      int newN = 0;
      int oldN = 0;
      double newSum = 0;
      double newAtOldHost = 0;
      double oldSum = 0;
      boolean probed = false;
      for (NewInstanceService r : with) {
        if (w < r.windows().size()) {
          Window x = r.windows().get(w);
          double sum = x.newServiceMs() == null ? 0 : x.newServiceMs() * x.newRequests();
          newN += x.newRequests();
          oldN += x.oldRequests();
          newSum += sum;
          newAtOldHost += x.hostRatio() == null ? sum : sum / x.hostRatio();
          probed |= x.hostRatio() != null;
          oldSum += x.oldServiceMs() == null ? 0 : x.oldServiceMs() * x.oldRequests();
        }
      }
      // the pooled ratio is the one that takes the pooled mean to the runs' host-free means
      Double ratio = probed && newAtOldHost > 0 ? newSum / newAtOldHost : null;
      windows.add(window(w, newN, oldN, newSum, oldSum, ratio));
    }
    Set<String> old = new LinkedHashSet<>();
    with.forEach(r -> old.addAll(r.oldInstances()));
    return new NewInstanceService(
        WINDOW_SECONDS,
        List.copyOf(old),
        with.getLast().newInstance(),
        windows,
        with.size() + " scale-outs pooled, window by window");
  }

  /**
   * The simulator's cold start these windows give: each window's factor for the requests the new
   * instance started in it ({@link ColdStart#fromWindows}).
   */
  public ColdStart coldStart(String source) {
    List<Double> factors = new ArrayList<>();
    List<Integer> requests = new ArrayList<>();
    for (Window w : windows) {
      factors.add(w.factor() == null ? Double.NaN : w.factor());
      requests.add(w.newRequests());
    }
    return ColdStart.fromWindows(requests, factors, source);
  }

  /**
   * The cold start {@link #coldStart} gives, in words ({@code a new instance's first requests take
   * 1.52x (0-99), ...}): what the report prints without reaching into the simulator.
   */
  public String coldStartDescription(String source) {
    return coldStart(source).describe();
  }

  /** True when at least one window gives a factor: a measured cold start (or a measured none). */
  public boolean measured() {
    return windows.stream().anyMatch(w -> w.factor() != null);
  }

  /** {@code new instance x1.43 / x1.41 / x1.18 / x0.98 the old one's service per 15 s}. */
  public String summary() {
    if (!measured()) {
      return "new instance: " + (note == null ? "no window with enough requests" : note);
    }
    StringBuilder b = new StringBuilder("new instance ");
    for (int i = 0; i < windows.size(); i++) {
      Double f = windows.get(i).factor();
      b.append(i == 0 ? "" : " / ")
          .append(f == null ? "-" : String.format(Locale.ROOT, "x%.2f", f));
    }
    b.append(
        String.format(Locale.ROOT, " the old one's service per %.0f s in service", windowSeconds));
    if (windows.stream().anyMatch(w -> w.hostRatio() != null)) {
      b.append(" (its host against the old one's, divided out: ");
      for (int i = 0; i < windows.size(); i++) {
        Double h = windows.get(i).hostRatio();
        b.append(i == 0 ? "" : " / ")
            .append(h == null ? "-" : String.format(Locale.ROOT, "x%.2f", h));
      }
      b.append(')');
    }
    return b.toString();
  }
}
