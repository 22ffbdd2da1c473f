/**
 * The planner's arithmetic: measured numbers in, a deployable scaling plan out. Pure: no clock, no
 * I/O, JDK only.
 *
 * <h2>The four-number model</h2>
 *
 * <p>Two inputs are chosen: the SLO (p95 time to first audio byte, queueing included) and the surge
 * ratio {@code k} (traffic may grow k× within one scale-out). Two are measured against the real
 * endpoint: <b>Q_max</b>, the highest concurrency (queued + executing) one instance holds with p95
 * TTFAB ≤ SLO, and <b>T_total</b>, the time from asking for capacity to that capacity serving
 * healthy traffic, plus the policy's own detection lag, which a forced scale-out bypasses and is
 * therefore bounded from the deployed policy rather than measured.
 *
 * <h2>Derivations</h2>
 *
 * <ul>
 *   <li>{@code h = k − 1}; {@code C_scale_max = (1 − h)·Q_max} is where one instance is added, so a
 *       surge of h still finds queue room while the new instance starts; {@code C_scale_min = (1 −
 *       2h)·Q_max} is where one is removed ({@link Thresholds}).
 *   <li>Removing one of N instances multiplies every survivor's load by N/(N−1), which must stay
 *       under {@code r = C_scale_max / C_scale_min}: {@code N_safe = max(2, ⌈r/(r−1)⌉)}.
 *   <li>{@code W_max = SLO − S_p95} is the queueing budget the SLO leaves; the request deadline
 *       {@code W_max + S_p95} must fit the platform's invocation ceiling.
 *   <li>Cooldowns follow T: scale-out {@code ⌊max(10, min(30, T/2))⌋}, scale-in {@code ⌊max(300,
 *       3T)⌋} ({@link Cooldowns}).
 *   <li>The deployed metric (ConcurrentRequestsPerModel, Maximum over 10 s) is not the client's
 *       mean in-flight; the ladder measures both and the planner converts with the measured ratio
 *       at the rung nearest each threshold. No measured ratio, no thresholds.
 *   <li>Fleet size comes from measured throughput: {@code n(λ) = ⌈λ / X(C_scale_max)⌉}. The
 *       published tool's {@code ⌈λ·S_mean / C_scale_max⌉} treats a serial instance as serving
 *       C_scale_max requests in parallel and undersizes a fleet ~30× ({@link FleetSizing}).
 *   <li>Surge survival is simulated at k× the arrival rate that holds C_scale_max, with service
 *       times drawn from the measured distribution ({@link SurgeSimulation}).
 * </ul>
 */
package dev.speechscale.capacity;
