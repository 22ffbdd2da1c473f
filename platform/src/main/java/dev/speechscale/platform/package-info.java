/**
 * The platform SPI: what the measurement chain needs from wherever an endpoint runs. Two
 * implementations provide every operation — the embedded local platform (processes on this machine)
 * and AWS SageMaker — so {@code drift}, {@code qmax}, {@code ttotal} and {@code validate} are
 * written once. JDK only.
 *
 * <p>Operations: describe an endpoint (status, desired and current instances); its fingerprint; its
 * scaling state (scalable target, policies, alarms and their states, suspended flags);
 * suspend/resume; set the desired instance count; per-instance startup logs with the time each
 * instance's log first appeared (to read stage markers); metric statistics
 * (ConcurrentRequestsPerModel Average/Maximum at 10 s and 60 s, invocations, 4xx/5xx, first-chunk
 * latency); and an {@link Invoker} per {@link Transport}.
 */
package dev.speechscale.platform;
