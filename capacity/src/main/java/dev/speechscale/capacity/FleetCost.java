package dev.speechscale.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What the planned fleet costs at one instance price: dollars per hour at trough and at peak,
 * dollars per million requests and per hour of audio produced. Pure arithmetic on the plan's fleet
 * sizes and the chosen loads; nothing here is measured or guessed.
 *
 * <p>At trough the fleet runs at {@code min_instances}, at peak at {@code max_instances} (the fleet
 * the plan sizes for those loads). Per request: the fleet's hourly cost over the requests it serves
 * in that hour, λ·3600. Per audio hour: the same hour's cost over the audio it produces, λ·3600·a
 * seconds for a seconds of audio per request. A figure whose input is missing is {@code null} and
 * {@link #omitted()} says why: a load stated in concurrent streams has no request rate; audio per
 * request is known only when the qmax artifact recorded it.
 *
 * @param pricePerHourUsd one instance's price per hour, as given
 * @param audioSecondsPerRequest mean seconds of audio one request produces, or {@code null} when
 *     not recorded
 * @param trough the fleet at trough ({@code min_instances})
 * @param peak the fleet at peak ({@code max_instances})
 * @param omitted one sentence per figure left out and why
 */
public record FleetCost(
    double pricePerHourUsd,
    @Nullable Double audioSecondsPerRequest,
    Point trough,
    Point peak,
    List<String> omitted) {

  public FleetCost {
    omitted = List.copyOf(omitted);
  }

  /**
   * The fleet at one load.
   *
   * @param instances instances running
   * @param requestsPerSecond the load's request rate, or {@code null} (streams, or no trough given)
   * @param usdPerHour instances × price
   * @param usdPerMillionRequests cost of a million requests at this load, or {@code null}
   * @param usdPerAudioHour cost of one hour of audio at this load, or {@code null}
   */
  public record Point(
      int instances,
      @Nullable Double requestsPerSecond,
      double usdPerHour,
      @Nullable Double usdPerMillionRequests,
      @Nullable Double usdPerAudioHour) {}

  /**
   * Prices a plan's fleet.
   *
   * @param pricePerHourUsd one instance's price per hour (positive, finite)
   * @param minInstances the plan's min_instances (the trough fleet)
   * @param maxInstances the plan's max_instances (the peak fleet)
   * @param trough the trough load, or {@code null} when none was given
   * @param peak the peak load
   * @param audioSecondsPerRequest mean audio seconds per request, or {@code null} when not recorded
   */
  public static FleetCost of(
      double pricePerHourUsd,
      int minInstances,
      int maxInstances,
      @Nullable Load trough,
      Load peak,
      @Nullable Double audioSecondsPerRequest) {
    if (!(pricePerHourUsd > 0) || Double.isInfinite(pricePerHourUsd)) {
      throw new CapacityException(
          "price per hour ("
              + pricePerHourUsd
              + " USD) must be a positive number, e.g. 1.408 for ml.g5.xlarge on demand");
    }
    if (audioSecondsPerRequest != null && !(audioSecondsPerRequest > 0)) {
      throw new CapacityException(
          "audio seconds per request (" + audioSecondsPerRequest + ") must be positive");
    }
    List<String> omitted = new ArrayList<>();
    if (audioSecondsPerRequest == null) {
      omitted.add(
          "$ per audio hour: the qmax artifact records no audio duration per request, so it is"
              + " not computed");
    }
    @Nullable Double troughRate = rate(trough, "trough", omitted);
    @Nullable Double peakRate = rate(peak, "peak", omitted);
    return new FleetCost(
        pricePerHourUsd,
        audioSecondsPerRequest,
        point(pricePerHourUsd, minInstances, troughRate, audioSecondsPerRequest),
        point(pricePerHourUsd, maxInstances, peakRate, audioSecondsPerRequest),
        omitted);
  }

  /** The trough line of a report: {@code 1 instance x $1.408 = $1.41/hour; ...}. */
  public String describeTrough() {
    return describe(trough);
  }

  /** The peak line of a report. */
  public String describePeak() {
    return describe(peak);
  }

  private String describe(Point p) {
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%d instance%s x $%s = $%.2f/hour",
                p.instances(),
                p.instances() == 1 ? "" : "s",
                java.math.BigDecimal.valueOf(pricePerHourUsd).stripTrailingZeros().toPlainString(),
                p.usdPerHour()));
    Double rps = p.requestsPerSecond();
    if (p.usdPerMillionRequests() != null && rps != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; $%.2f per million requests at %s req/s",
              p.usdPerMillionRequests(),
              Load.Numbers.compact(rps)));
    }
    if (p.usdPerAudioHour() != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; $%.4f per audio hour (%.2f s of audio per request)",
              p.usdPerAudioHour(),
              audioSecondsPerRequest));
    }
    return s.toString();
  }

  private static @Nullable Double rate(@Nullable Load load, String which, List<String> omitted) {
    return switch (load) {
      case null -> {
        omitted.add(
            "$ per request at "
                + which
                + ": no "
                + which
                + " load was given, so only the fleet's $/hour is shown");
        yield null;
      }
      case Load.RequestRate r when r.perSecond() > 0 -> r.perSecond();
      case Load.RequestRate r -> {
        omitted.add("$ per request at " + which + ": the " + which + " rate is 0 req/s");
        yield null;
      }
      case Load.Streams s -> {
        omitted.add(
            String.format(
                Locale.ROOT,
                "$ per request at %s: the %s load is %s (concurrent streams), not a request rate",
                which,
                which,
                s.describe()));
        yield null;
      }
    };
  }

  private static Point point(
      double price,
      int instances,
      @Nullable Double requestsPerSecond,
      @Nullable Double audioSecondsPerRequest) {
    double perHour = instances * price;
    if (requestsPerSecond == null) {
      return new Point(instances, null, perHour, null, null);
    }
    double requestsPerHour = requestsPerSecond * 3600;
    @Nullable Double perAudioHour =
        audioSecondsPerRequest == null
            ? null
            : perHour / (requestsPerHour * audioSecondsPerRequest / 3600);
    return new Point(
        instances, requestsPerSecond, perHour, perHour / requestsPerHour * 1e6, perAudioHour);
  }
}
