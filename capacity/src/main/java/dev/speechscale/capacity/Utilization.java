package dev.speechscale.capacity;

/**
 * Utilisation implied by a mean number in system, for one server.
 *
 * <p>Steeply non-linear: occupancy 4 is 80% utilised, occupancy 37.5 is 97.4% (M/M/1). That is why
 * a scale-out threshold at three quarters of Q_max is not three quarters of the way to trouble.
 */
final class Utilization {
  private Utilization() {}

  /** M/M/1: {@code L = ρ/(1 − ρ)} inverted, {@code ρ = L/(1 + L)} (the published figure). */
  static double mm1(double occupancy) {
    checkOccupancy(occupancy);
    return occupancy / (1.0 + occupancy);
  }

  /**
   * M/G/1 by the Pollaczek–Khinchine formula {@code L = ρ + ρ²(1 + c²) / (2(1 − ρ))} solved for ρ,
   * where c is the service-time coefficient of variation. At c = 1 this is {@link #mm1}; nearly
   * deterministic service (small c) reaches the same occupancy only at a higher utilisation.
   */
  static double mg1(double occupancy, double serviceCv) {
    checkOccupancy(occupancy);
    if (!(serviceCv >= 0) || Double.isInfinite(serviceCv)) {
      throw new CapacityException(
          "service-time coefficient of variation (" + serviceCv + ") must be finite and >= 0");
    }
    if (occupancy == 0) {
      return 0;
    }
    // (c² − 1)ρ² + 2(1 + L)ρ − 2L = 0; the root in (0, 1) in a form that is stable at c = 1.
    double a = serviceCv * serviceCv - 1.0;
    double b = 2.0 * (1.0 + occupancy);
    double discriminant = b * b + 8.0 * a * occupancy;
    return 4.0 * occupancy / (b + Math.sqrt(discriminant));
  }

  private static void checkOccupancy(double occupancy) {
    if (!(occupancy >= 0) || Double.isInfinite(occupancy)) {
      throw new CapacityException("occupancy (" + occupancy + ") must be finite and >= 0");
    }
  }
}
