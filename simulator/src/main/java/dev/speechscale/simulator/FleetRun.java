package dev.speechscale.simulator;

import dev.speechscale.capacity.SplitMix64;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * One policy's run over the traffic: the event loop, the fleet's arrays and the tallies. One unit
 * because the hot path (an arrival: retire what ended, pick, admit, record) touches all of them and
 * is kept free of calls through interfaces and of allocation; it is longer than the house's 300
 * lines for that reason.
 *
 * <p><b>Time.</b> Arrivals come in time order from {@link Traffic}; before an arrival at t, every
 * whole second s ≤ t is ticked (retire requests that ended by s, bring started instances into
 * service, sample the metrics, let the policy decide, tally the second), then every request that
 * ended by t is retired, then the arrival is routed. Requests are never objects: an instance is a
 * row in primitive arrays, its slots' next-free times are the Lindley recursion of a FIFO queue
 * ({@code start = max(arrival, earliest slot free)}), and its in-flight requests are end times in
 * {@link Completions}.
 *
 * <p><b>Pre-roll.</b> With {@link FleetSimulator.PreRoll}, seconds −P … −1 run through the same
 * loop at the trace's first rate (own random streams), then every tally is cleared before t = 0. A
 * {@link FleetSimulator.PreRoll.Recorded} one runs nothing: its samples are filed as seconds −P …
 * −1 of the metric history.
 */
final class FleetRun {
  private static final int TABLE_BITS = 12;
  private static final int TABLE = 1 << TABLE_BITS;
  private static final byte FREE = 0;
  private static final byte STARTING = 1;
  private static final byte IN_SERVICE = 2;
  private static final byte DRAINING = 3;
  private static final long PROGRESS_EVERY_S = 3600;
  private static final long PRE_ROLL_ARRIVALS = 0x9E3779B97F4A7C15L;
  private static final long PRE_ROLL_SERVICE = 0xC2B2AE3D27D4EB4FL;
  private static final long STARTUP_DRAWS = 0x165667B19E3779F9L;
  private static final long START_JITTER_DRAWS = 0x27D4EB2F165667C5L;
  private static final int HELD_LEVELS = 1024;

  private final Traffic traffic;
  private final Policy policy;
  private final Scaler scaler;
  private final Progress progress;
  private final long seed;
  private final boolean sampleBusy;
  private final long preRollS;
  private final FleetSimulator.PreRoll preRollKind;

  private final int slots;
  private final int queueMaxDepth;
  private final double refusalCostS;
  private final double idleService;
  private final double idleFirstByte;
  private final double[] coldFactor;

  /** Requests each initial instance served before t = 0 ({@code INITIAL_WARM}: warm). */
  private final long initialServed;

  private final HostSpeeds hostSpeeds;
  private long[] launch = new long[16];
  private long launches;
  private final double[] occupancy = new double[TABLE];
  private final double[] firstByte = new double[TABLE];
  private final double[] inFlightFor = new double[TABLE];
  private final double[] firstByteScale = new double[HELD_LEVELS + 1];
  private final double firstByteMeanS;
  private final double deadlineS;
  private final double[] startupS;
  private final SplitMix64 startupDraws;
  private final double startJitterS;
  private final SplitMix64 jitterDraws;
  private final int capacityLimit;
  private final double sloS;
  private SplitMix64 service;

  private byte[] phase = new byte[16];
  private double[] readyAt = new double[16];
  private int[] launchedBy = new int[16];
  private int[] startedOn = new int[16];
  private double[] slotFree;
  private int allocated;
  private int[] freeIds = new int[16];
  private int freeCount;
  private int[] startingQueue = new int[16];
  private int startingHead;
  private int starting;
  private int inService;
  private int draining;
  private long inFlightInService;
  private int desired;
  private final LorBuckets lor = new LorBuckets();
  private final Completions done = new Completions();
  private final MetricSamples samples;
  private long secondInvocations;

  private final LogHistogram minuteHist = new LogHistogram();
  private final LogHistogram totalHist = new LogHistogram();
  private final List<PolicyResult.Minute> minutes = new ArrayList<>();
  private long minuteArrived;
  private long minuteServed;
  private long minuteShed;
  private long minuteMisses;
  private long minuteInServiceSum;
  private int minuteInServiceMax;
  private int minuteSeconds;

  private long arrived;
  private long served;
  private long shedQueueFull;
  private long shedDeadline;
  private long shedNoInstance;
  private long withinSlo;
  private double ttfabSumS;
  private long billedSeconds;
  private long inServiceSeconds;
  private int peakInService;
  private long secondsAtMax;
  private int scaleOuts;
  private int scaleIns;
  private final List<EventRow> events = new ArrayList<>();

  /** A scaling decision while its instances are still starting. */
  private static final class EventRow {
    final long at;
    final int from;
    int to;
    String cause;
    int pending;
    long inServiceAt = -1;

    EventRow(long at, int from, int to, String cause) {
      this.at = at;
      this.from = from;
      this.to = to;
      this.cause = cause;
    }
  }

  FleetRun(
      InstanceModel model,
      Traffic traffic,
      Policy policy,
      Scaler scaler,
      FleetSimulator.Options options,
      Progress progress) {
    this.traffic = traffic;
    this.policy = policy;
    this.scaler = scaler;
    this.progress = progress;
    this.seed = options.seed();
    this.sampleBusy = policy instanceof Policy.CpuTracking;
    this.preRollS = options.preRoll().seconds(policy, options.metricPublicationDelay());
    this.preRollKind = options.preRoll();
    this.slots = model.slots();
    this.queueMaxDepth = model.queueMaxDepth();
    this.refusalCostS = model.refusalCost().secondsPerRefusal();
    this.idleService = model.idleStart().serviceFactor();
    this.idleFirstByte = model.idleStart().firstByteFactor();
    this.hostSpeeds = options.hostSpeeds();
    this.initialServed = options.initialServed();
    this.coldFactor = new double[model.coldStart().rampRequests()];
    for (int k = 0; k < coldFactor.length; k++) {
      coldFactor[k] = model.coldStart().factor(k);
    }
    double firstByteSum = 0;
    for (int i = 0; i < TABLE; i++) {
      double u = (i + 0.5) / TABLE;
      double s = model.responseTimes().sample(u);
      occupancy[i] = s * model.occupancyScale();
      firstByte[i] =
          switch (model.firstByte()) {
            case FirstByte.Proportional p -> s * p.ratio();
            case FirstByte.ByConcurrency c -> c.shape().sample(u) / c.shape().meanSeconds();
          };
      firstByteSum += firstByte[i];
      inFlightFor[i] = Math.max(occupancy[i], s);
    }
    this.firstByteMeanS = firstByteSum / TABLE;
    for (int held = 0; held <= HELD_LEVELS; held++) {
      firstByteScale[held] =
          switch (model.firstByte()) {
            case FirstByte.Proportional p -> 1.0;
            case FirstByte.ByConcurrency c -> c.meanSecondsAt(held + 1.0);
          };
    }
    this.deadlineS = model.requestDeadline().toNanos() / 1e9;
    this.startupS = model.startupDelays().seconds();
    this.startupDraws = new SplitMix64(seed ^ STARTUP_DRAWS);
    this.startJitterS = options.startPhysics().jitter().toNanos() / 1e9;
    this.jitterDraws = new SplitMix64(seed ^ START_JITTER_DRAWS);
    this.capacityLimit = options.startPhysics().capacityLimit();
    this.sloS = options.sloMs() / 1000.0;
    this.service = new SplitMix64(seed ^ 0x5DEECE66DL);
    this.slotFree = new double[16 * slots];
    this.samples = new MetricSamples(options.metricPublicationDelay().toMillis());
  }

  PolicyResult run() {
    long end = traffic.durationSeconds();
    desired = policy.initialInstances();
    for (int i = 0; i < desired; i++) {
      int id = allocate();
      phase[id] = IN_SERVICE;
      // warm, or as far into the cold start as the requests it served before t = 0
      startedOn[id] =
          initialServed == FleetSimulator.Options.INITIAL_WARM
              ? coldFactor.length
              : (int) Math.min(initialServed, coldFactor.length);
      inService++;
      lor.add(id, 0);
    }
    preRoll();
    long nextTick = 0;
    try (Traffic.ArrivalStream arrivals = traffic.open(seed)) {
      for (double t = arrivals.next(); !Double.isNaN(t) && t < end; t = arrivals.next()) {
        while (nextTick <= t) {
          tick(nextTick++);
        }
        retireUpTo(t);
        route(t);
      }
    }
    while (nextTick < end) {
      tick(nextTick++);
    }
    closeMinute((end - 1) / 60);
    progress.update(policy.name(), end, end);
    return result(end);
  }

  /**
   * Seconds −preRoll … −1 at the trace's first rate, with their own random streams (so the arrivals
   * and service times from t = 0 on are a run without a pre-roll's), then every tally is cleared:
   * only the metric samples, the scaler's state and the fleet carry over.
   */
  private void preRoll() {
    if (preRollS == 0) {
      return;
    }
    if (preRollKind instanceof FleetSimulator.PreRoll.Recorded r) {
      List<Double> c = r.concurrencyPerInstance();
      for (int i = 0; i < c.size(); i++) {
        samples.record(i - c.size(), c.get(i), Double.NaN, Double.NaN);
      }
      return;
    }
    SplitMix64 main = service;
    service = new SplitMix64(seed ^ PRE_ROLL_SERVICE);
    SplitMix64 gaps = new SplitMix64(seed ^ PRE_ROLL_ARRIVALS);
    double rate = traffic.firstRatePerSecond();
    long nextTick = -preRollS;
    if (rate > 0) {
      for (double t = nextTick - Math.log1p(-gaps.nextDouble()) / rate;
          t < 0;
          t -= Math.log1p(-gaps.nextDouble()) / rate) {
        while (nextTick <= t) {
          tick(nextTick++);
        }
        retireUpTo(t);
        route(t);
      }
    }
    while (nextTick < 0) {
      tick(nextTick++);
    }
    service = main;
    forgetTallies();
  }

  /** Clears everything the result reports; a pre-roll's scaling events are forgotten too. */
  private void forgetTallies() {
    for (int i = 0; i < starting; i++) {
      launchedBy[startingQueue[(startingHead + i) % startingQueue.length]] = -1;
    }
    events.clear();
    clearMinute();
    arrived = 0;
    served = 0;
    shedQueueFull = 0;
    shedDeadline = 0;
    shedNoInstance = 0;
    withinSlo = 0;
    ttfabSumS = 0;
    billedSeconds = 0;
    inServiceSeconds = 0;
    peakInService = 0;
    secondsAtMax = 0;
    scaleOuts = 0;
    scaleIns = 0;
  }

  private void tick(long s) {
    if (s > 0 && s % 60 == 0) {
      closeMinute(s / 60 - 1);
    }
    retireUpTo(s);
    promote(s);
    double concurrency = inService == 0 ? Double.NaN : (double) inFlightInService / inService;
    double invocations = inService == 0 ? Double.NaN : (double) secondInvocations / inService;
    double busy = sampleBusy && inService > 0 ? busyPercent(s) : Double.NaN;
    samples.record(s, concurrency, invocations, busy);
    secondInvocations = 0;
    Scaler.Step step = scaler.evaluate(s * 1000, samples, desired, inService);
    if (step.desired() != desired) {
      apply(s, step);
      promote(s);
    }
    billedSeconds += starting + inService + draining;
    inServiceSeconds += inService;
    peakInService = Math.max(peakInService, inService);
    if (desired >= policy.maxInstances()) {
      secondsAtMax++;
    }
    minuteInServiceSum += inService;
    minuteInServiceMax = Math.max(minuteInServiceMax, inService);
    minuteSeconds++;
    if (s > 0 && s % PROGRESS_EVERY_S == 0) {
      progress.update(policy.name(), s, traffic.durationSeconds());
    }
  }

  private void route(double t) {
    arrived++;
    minuteArrived++;
    int id = lor.least();
    if (id < 0) {
      shedNoInstance++;
      minuteShed++;
      return;
    }
    secondInvocations++;
    int held = done.inFlight(id);
    if (queueMaxDepth > 0 && held >= queueMaxDepth) {
      shedQueueFull++;
      minuteShed++;
      if (refusalCostS > 0) {
        spendOnRefusal(id, t);
      }
      return;
    }
    int slot = id * slots;
    double free = slotFree[slot];
    for (int j = 1; j < slots; j++) {
      if (slotFree[id * slots + j] < free) {
        slot = id * slots + j;
        free = slotFree[slot];
      }
    }
    double start = Math.max(free, t);
    // a request that finds its slot free has the instance's CPU quota to itself (IdleStart)
    boolean idle = free < t;
    double idleS = idle ? idleService : 1;
    int k = startedOn[id];
    double cold =
        (k < coldFactor.length ? coldFactor[k] : 1) * hostSpeeds.factor(launch[id], start);
    double firstByteScaleNow = firstByteScale[Math.min(held, HELD_LEVELS)] * cold;
    if (start - t + firstByteMeanS * firstByteScaleNow > deadlineS) {
      shedDeadline++;
      minuteShed++;
      return;
    }
    if (k < coldFactor.length) {
      startedOn[id] = k + 1;
    }
    int u = (int) (service.nextLong() >>> (64 - TABLE_BITS));
    slotFree[slot] = start + occupancy[u] * cold * idleS;
    done.add(id, start + inFlightFor[u] * cold * idleS);
    lor.move(id, held, held + 1);
    inFlightInService++;
    double ttfab = start - t + firstByte[u] * firstByteScaleNow * (idle ? idleFirstByte : 1);
    ttfabSumS += ttfab;
    served++;
    minuteServed++;
    minuteHist.record((long) (ttfab * 1e6));
    if (ttfab <= sloS) {
      withinSlo++;
    } else {
      minuteMisses++;
    }
  }

  /**
   * A refusal takes {@link RefusalCost#secondsPerRefusal()} of the whole instance: every slot frees
   * that much later (a slot already free is busy from now), so requests admitted after it start
   * later and the instance serves {@code X_sat × (1 − r·τ)} while refusing r per second.
   */
  private void spendOnRefusal(int id, double t) {
    for (int j = id * slots; j < (id + 1) * slots; j++) {
      slotFree[j] = Math.max(slotFree[j], t) + refusalCostS;
    }
  }

  private void retireUpTo(double t) {
    while (done.nextEnd() <= t) {
      int id = done.nextInstance();
      int held = done.inFlight(id);
      done.retireNext();
      if (phase[id] == IN_SERVICE) {
        lor.move(id, held, held - 1);
        inFlightInService--;
      } else if (phase[id] == DRAINING && held == 1) {
        release(id);
        draining--;
      }
    }
  }

  /**
   * Brings every starting instance that is ready by {@code s} into service. With one start-up delay
   * the queue is in ready order; with several, a later instance can be ready first, so the queue is
   * scanned and the ones still starting keep their order.
   */
  private void promote(long s) {
    if (startupS.length == 1 && startJitterS == 0) {
      while (starting > 0 && readyAt[startingQueue[startingHead]] <= s) {
        int id = startingQueue[startingHead];
        startingHead = (startingHead + 1) % startingQueue.length;
        starting--;
        toService(id, s);
      }
      return;
    }
    int kept = 0;
    for (int i = 0; i < starting; i++) {
      int id = startingQueue[(startingHead + i) % startingQueue.length];
      if (readyAt[id] <= s) {
        toService(id, s);
      } else {
        startingQueue[(startingHead + kept++) % startingQueue.length] = id;
      }
    }
    starting = kept;
  }

  private void toService(int id, long s) {
    phase[id] = IN_SERVICE;
    inService++;
    lor.add(id, 0);
    if (launchedBy[id] >= 0) {
      EventRow e = events.get(launchedBy[id]);
      e.pending--;
      e.inServiceAt = s;
    }
  }

  private void apply(long s, Scaler.Step step) {
    int from = desired;
    int to = step.desired();
    desired = to;
    EventRow e = new EventRow(s, from, to, step.cause());
    events.add(e);
    int active = starting + inService;
    if (to > from) {
      scaleOuts++;
      int provisioned = to;
      if (capacityLimit > 0 && to > Math.max(active, capacityLimit)) {
        // SageMaker cannot provision past the Region's capacity: desired falls back to what runs
        provisioned = Math.max(active, capacityLimit);
        desired = provisioned;
        e.to = provisioned;
        e.cause =
            step.cause()
                + "; "
                + StartPhysics.INSUFFICIENT_CAPACITY
                + " (capacity limit "
                + capacityLimit
                + "): desired falls back to "
                + provisioned;
      }
      for (int n = active; n < provisioned; n++) {
        int id = allocate();
        phase[id] = STARTING;
        startedOn[id] = 0; // a scale-out's instance starts cold
        readyAt[id] = s + startupDelayS();
        launchedBy[id] = events.size() - 1;
        enqueueStarting(id);
        e.pending++;
      }
      return;
    }
    scaleIns++;
    int excess = active - to;
    while (excess > 0 && starting > 0) {
      int tail = (startingHead + starting - 1) % startingQueue.length;
      int id = startingQueue[tail];
      starting--;
      if (launchedBy[id] >= 0) {
        events.get(launchedBy[id]).pending--;
      }
      release(id);
      excess--;
    }
    while (excess > 0 && inService > 0) {
      int id = lor.least();
      int held = done.inFlight(id);
      lor.remove(id, held);
      inService--;
      inFlightInService -= held;
      if (held == 0) {
        release(id);
      } else {
        phase[id] = DRAINING;
        draining++;
      }
      excess--;
    }
  }

  /** The next instance's start-up delay: the only sample, or one drawn from its own stream. */
  private double startupDelayS() {
    double measured =
        startupS.length == 1
            ? startupS[0]
            : startupS[(int) (startupDraws.nextDouble() * startupS.length)];
    return startJitterS == 0 ? measured : measured + jitterDraws.nextDouble() * startJitterS;
  }

  private double busyPercent(long s) {
    long busy = 0;
    for (int id = 0; id < allocated; id++) {
      if (phase[id] == IN_SERVICE) {
        for (int j = 0; j < slots; j++) {
          if (slotFree[id * slots + j] > s) {
            busy++;
          }
        }
      }
    }
    return 100.0 * busy / ((long) inService * slots);
  }

  private int allocate() {
    int id;
    if (freeCount > 0) {
      id = freeIds[--freeCount];
    } else {
      id = allocated++;
      if (id >= phase.length) {
        int n = phase.length * 2;
        phase = Arrays.copyOf(phase, n);
        readyAt = Arrays.copyOf(readyAt, n);
        launchedBy = Arrays.copyOf(launchedBy, n);
        startedOn = Arrays.copyOf(startedOn, n);
        launch = Arrays.copyOf(launch, n);
        slotFree = Arrays.copyOf(slotFree, n * slots);
      }
    }
    Arrays.fill(slotFree, id * slots, (id + 1) * slots, Double.NEGATIVE_INFINITY);
    done.reset(id);
    launch[id] = launches++;
    return id;
  }

  private void release(int id) {
    phase[id] = FREE;
    if (freeCount == freeIds.length) {
      freeIds = Arrays.copyOf(freeIds, freeCount * 2);
    }
    freeIds[freeCount++] = id;
  }

  private void enqueueStarting(int id) {
    if (starting == startingQueue.length) {
      int[] grown = new int[startingQueue.length * 2];
      for (int i = 0; i < starting; i++) {
        grown[i] = startingQueue[(startingHead + i) % startingQueue.length];
      }
      startingQueue = grown;
      startingHead = 0;
    }
    startingQueue[(startingHead + starting) % startingQueue.length] = id;
    starting++;
  }

  private void closeMinute(long minute) {
    if (minuteSeconds == 0 && minuteArrived == 0) {
      return;
    }
    minutes.add(
        new PolicyResult.Minute(
            minute,
            minuteArrived,
            minuteServed,
            minuteShed,
            minuteMisses,
            minuteHist.quantileMs(0.95),
            minuteSeconds == 0 ? 0 : (double) minuteInServiceSum / minuteSeconds,
            minuteInServiceMax));
    totalHist.add(minuteHist);
    clearMinute();
  }

  /** Starts the minute's tallies afresh. */
  private void clearMinute() {
    minuteHist.clear();
    minuteArrived = 0;
    minuteServed = 0;
    minuteShed = 0;
    minuteMisses = 0;
    minuteInServiceSum = 0;
    minuteInServiceMax = 0;
    minuteSeconds = 0;
  }

  private PolicyResult result(long end) {
    List<PolicyResult.ScalingEvent> out = new ArrayList<>(events.size());
    for (EventRow e : events) {
      OptionalLong at =
          e.to > e.from && e.pending == 0 && e.inServiceAt >= 0
              ? OptionalLong.of(e.inServiceAt)
              : OptionalLong.empty();
      out.add(new PolicyResult.ScalingEvent(e.at, e.from, e.to, e.cause, at));
    }
    return new PolicyResult(
        policy.name(),
        policy.description(),
        arrived,
        served,
        shedQueueFull,
        shedDeadline,
        shedNoInstance,
        withinSlo,
        served == 0 ? Double.NaN : ttfabSumS / served * 1000.0,
        totalHist.quantileMs(0.50),
        totalHist.quantileMs(0.95),
        totalHist.quantileMs(0.99),
        peakInService,
        end == 0 ? 0 : (double) inServiceSeconds / end,
        billedSeconds / 3600.0,
        scaleOuts,
        scaleIns,
        secondsAtMax,
        minutes,
        out);
  }
}
