package dev.speechscale.simulator;

import java.util.Arrays;
import java.util.stream.Stream;

/** Traffic for tests: requests arriving at given seconds, as an arrivals CSV would list them. */
final class ArrivalTimes {
  private ArrivalTimes() {}

  static Traffic at(double... times) {
    return Traffic.csv(
        "arrivals.csv",
        () ->
            Stream.concat(Stream.of("arrival_s"), Arrays.stream(times).mapToObj(Double::toString)));
  }
}
