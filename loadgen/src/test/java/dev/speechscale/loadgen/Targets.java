package dev.speechscale.loadgen;

import dev.speechscale.platform.Invoker;
import dev.speechscale.platform.InvokerTarget;
import dev.speechscale.platform.Invokers;
import dev.speechscale.platform.NanoClock;
import dev.speechscale.platform.Transport;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/** Invokers for tests, found the way the CLI finds them (ServiceLoader). */
final class Targets {
  private Targets() {}

  static Invoker invoker(Transport transport, URI base) {
    return invoker(transport, base, Duration.ofSeconds(10));
  }

  static Invoker invoker(Transport transport, URI base, Duration timeout) {
    return Invokers.create(
        new InvokerTarget(transport, "test", base, "local", timeout, NanoClock.SYSTEM, Map.of()));
  }
}
