/**
 * The load generator behind {@code qmax}, {@code ttotal} and {@code validate --live}.
 *
 * <h2>Closed loop (Q_max)</h2>
 *
 * <p>Q_max is a concurrency, so the ladder sets concurrency directly: {@link
 * dev.speechscale.loadgen.ClosedLoopDriver} runs N workers, each with exactly one request
 * outstanding and its own connection, so queued + executing = N by construction — no arrival rate,
 * no λ = C/S conversion. Each rung is held for {@code hold}; only the trailing {@code window} is
 * measured (the start is warm-up: all N workers start at once). Requests are attributed to the
 * window by their <em>end</em> time, so ok completions per second is a throughput. Percentiles are
 * over successful requests only, by linear interpolation between closest ranks ({@link
 * dev.speechscale.capacity.Percentiles}), computed from raw samples; every rung also keeps whole
 * HdrHistograms (microseconds) of TTFAB and full latency so runs merge by adding histograms, never
 * by averaging percentiles.
 *
 * <p>With a {@link dev.speechscale.loadgen.StabilityRule} of K &gt; 1 windows (qmax's default is
 * three within 10 %), the trailing window is only the first: the rung is held on, window after
 * window with no gap, until K in a row agree — each one's throughput and p95 within P % of their
 * mean ({@link dev.speechscale.loadgen.WindowAgreement}) — or until its max hold. The rung's
 * figures are then the requests that ended inside those K windows taken together; a rung that
 * reaches its max hold without them is unstable and unusable. This is perf_analyzer's stability
 * check: one window after a fixed warm-up assumes the rung is steady, the windows test it.
 *
 * <p>A rung is trusted only if it passes every check of {@link dev.speechscale.loadgen.RungVerdict}
 * — capacity unchanged, something completed, no worker overlapped itself, under 1% rejections and
 * under 1% other failures, client mean concurrency (time-weighted in-flight) within 5% of N (else
 * the client, not the server, set the pace), its windows agreed (when more than one had to), and
 * TTFAB drift within 25% of p95 (median of the window's last third minus its first third).
 *
 * <p>{@link dev.speechscale.loadgen.LadderRunner} walks coarse rungs, then bisects between the last
 * passing and the first breaching rung so Q_max is exact to ±1; two consecutive saturated rungs
 * stop a run. Each run then measures its reference rung again ({@link
 * dev.speechscale.loadgen.DriftRecheck}): rungs measured minutes apart are compared as if the
 * endpoint had stood still, and when the machine under it drifts between them Q_max measures the
 * drift, so a re-measurement beyond tolerance is recorded and the plan warns. {@link
 * dev.speechscale.loadgen.DryRun} estimates the cost for a server of given service parallelism (a
 * serial server completes 1/S requests per second at every N).
 *
 * <h2>Open loop (surges) and coordinated omission</h2>
 *
 * <p>A closed loop slows down with the server, so it can never show the queueing a fixed arrival
 * rate would build — coordinated omission. That is right for Q_max (the question is latency
 * <em>at</em> N outstanding) and wrong for "does the fleet absorb a k× surge". {@link
 * dev.speechscale.loadgen.OpenLoopDriver} sends on a constant or Poisson schedule whatever the
 * server does, and measures latency from each request's <em>intended</em> send time; its client is
 * bounded and reports drops and late sends instead of hiding them.
 *
 * <h2>Transports</h2>
 *
 * <p>{@link dev.speechscale.loadgen.HttpStreamInvokerProvider} (keep-alive HTTP/1.1 {@code POST
 * /invocations}) and {@link dev.speechscale.loadgen.BidiInvokerProvider} (one WebSocket session per
 * worker) are registered with {@link java.util.ServiceLoader}. Both read plain sockets on the
 * worker's own virtual thread and stamp the first audio byte when the read carrying it returned:
 * after the WAV header for HTTP, the first binary frame for the WebSocket. A 200 stream that ends
 * without its terminating chunk — the container's in-band failure — is a server error, never a
 * short success.
 */
package dev.speechscale.loadgen;
