/**
 * The measurement chain — {@code drift → qmax → ttotal → plan → validate}, plus {@code thaw} and
 * {@code quickstart} — written once against the platform SPI, so the same procedures measure a
 * local endpoint and a SageMaker one.
 *
 * <p>Every procedure that changes an endpoint (qmax and ttotal freeze scaling and pin capacity;
 * validate --live drives load and may pin capacity) puts it back on every exit path: normal return,
 * exception, a freeze that failed halfway, and Ctrl-C/SIGTERM (a shutdown hook). Only a hard kill
 * can leave it frozen, which {@code drift} then reports and {@code thaw} repairs.
 */
package dev.speechscale.chain;
