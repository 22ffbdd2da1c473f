package dev.speechscale.admission;

/**
 * Every {@link AdmissionGateTest} again, its waiters and clients on platform threads: the gate's
 * guarantees (released exactly once, FIFO, deadline shedding, an empty gate at the end) must not
 * depend on the virtual-thread scheduler.
 */
class AdmissionGateOnPlatformThreadsTest extends AdmissionGateTest {
  @Override
  Thread.Builder threads() {
    return Thread.ofPlatform().daemon();
  }
}
