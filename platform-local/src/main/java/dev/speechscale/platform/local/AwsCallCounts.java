package dev.speechscale.platform.local;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * What the AWS-shaped control plane answered, per {@code Service.Operation}: calls, throttles
 * (AWS's {@code ThrottlingException} in the JSON protocols and {@code Throttling} in CloudWatch's
 * Query protocol, see https://docs.aws.amazon.com/sagemaker/latest/APIReference/CommonErrors.html
 * and https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/CommonErrors.html) and other
 * errors by code, plus the order of the calls that changed something or were refused (the journal),
 * so a test can say "this change was refused, then a later one was accepted" without timing
 * anything. Thread-safe: the plane's handler threads record, a test reads {@link #snapshot} at any
 * time.
 */
public final class AwsCallCounts {
  /** How many journal entries are kept; the oldest go first. */
  static final int JOURNAL_LIMIT = 10_000;

  /** One operation's figures. {@code errors} holds every error code, throttling included. */
  public record Count(long calls, long throttles, Map<String, Long> errors) {
    public Count {
      errors = Collections.unmodifiableMap(new TreeMap<>(errors));
    }

    /** This minus {@code before} (the same operation earlier); codes that did not grow drop. */
    public Count minus(@Nullable Count before) {
      if (before == null) {
        return this;
      }
      Map<String, Long> e = new TreeMap<>();
      errors.forEach((code, n) -> {
        long d = n - before.errors().getOrDefault(code, 0L);
        if (d != 0) {
          e.put(code, d);
        }
      });
      return new Count(calls - before.calls(), throttles - before.throttles(), e);
    }
  }

  /**
   * One answered call in order: its sequence number, {@code Service.Operation}, and the error code
   * it was answered with ({@code null}: accepted).
   */
  public record Call(long sequence, String operation, @Nullable String error) {}

  private static final class Adders {
    final LongAdder calls = new LongAdder();
    final LongAdder throttles = new LongAdder();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  }

  private final Map<String, Adders> byOperation = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();
  private final List<Call> journal = new ArrayList<>();

  /** Records one answered call; {@code error} is the AWS error code, {@code null} when accepted. */
  void record(String operation, @Nullable String error) {
    Adders a = byOperation.computeIfAbsent(operation, k -> new Adders());
    a.calls.increment();
    if (error != null) {
      a.errors.computeIfAbsent(error, k -> new LongAdder()).increment();
      if (isThrottling(error)) {
        a.throttles.increment();
      }
    }
    synchronized (journal) {
      journal.add(new Call(sequence.incrementAndGet(), operation, error));
      if (journal.size() > JOURNAL_LIMIT) {
        journal.subList(0, journal.size() - JOURNAL_LIMIT).clear();
      }
    }
  }

  /**
   * AWS's throttling codes: JSON protocols say ThrottlingException, the Query protocol Throttling.
   */
  static boolean isThrottling(String code) {
    return code.equals("ThrottlingException") || code.equals("Throttling");
  }

  /** Every operation's figures so far, by {@code Service.Operation}, sorted. */
  public Map<String, Count> snapshot() {
    Map<String, Count> out = new TreeMap<>();
    byOperation.forEach((op, a) -> {
      Map<String, Long> errors = new TreeMap<>();
      a.errors.forEach((code, n) -> errors.put(code, n.sum()));
      out.put(op, new Count(a.calls.sum(), a.throttles.sum(), errors));
    });
    return out;
  }

  /**
   * {@code now} minus {@code before}, both from {@link #snapshot}; operations with no call drop.
   */
  public static Map<String, Count> between(Map<String, Count> before, Map<String, Count> now) {
    Map<String, Count> out = new TreeMap<>();
    now.forEach((op, c) -> {
      Count d = c.minus(before.get(op));
      if (d.calls() != 0) {
        out.put(op, d);
      }
    });
    return out;
  }

  /** The calls answered so far, oldest first (at most {@value #JOURNAL_LIMIT}). */
  public List<Call> journal() {
    synchronized (journal) {
      return List.copyOf(journal);
    }
  }

  /**
   * The figures as JSON: {@code {"Service.Operation": {"calls": n, "throttles": n, "errors":
   * {"Code": n}}}}.
   */
  public static String json(Map<String, Count> counts) {
    StringBuilder b = new StringBuilder("{");
    String sep = "";
    for (Map.Entry<String, Count> e : counts.entrySet()) {
      Count c = e.getValue();
      b.append(sep).append('"').append(e.getKey()).append("\":{\"calls\":").append(c.calls());
      b.append(",\"throttles\":").append(c.throttles()).append(",\"errors\":{");
      String s2 = "";
      for (Map.Entry<String, Long> err : c.errors().entrySet()) {
        b.append(s2).append('"').append(err.getKey()).append("\":").append(err.getValue());
        s2 = ",";
      }
      b.append("}}");
      sep = ",";
    }
    return b.append('}').toString();
  }

  /**
   * The figures as text, one operation a line: {@code Service.Operation calls throttles errors}.
   */
  public static String text(Map<String, Count> counts) {
    StringBuilder b = new StringBuilder();
    counts.forEach((op, c) ->
        b.append(
                String.format(
                    Locale.ROOT,
                    "%-52s %5d calls %4d throttled%s",
                    op,
                    c.calls(),
                    c.throttles(),
                    c.errors().isEmpty() ? "" : " errors " + c.errors()))
            .append('\n'));
    return b.toString();
  }
}
