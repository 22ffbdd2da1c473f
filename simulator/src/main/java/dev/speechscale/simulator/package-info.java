/**
 * The fleet simulator: what a scaling policy would do with a traffic trace on a fleet of measured
 * instances, where we cannot run it (hundreds of instances, thousands of requests per second, a day
 * or a week). Pure: JDK, {@code capacity} and {@code scaling} only, no clock, no I/O, seeded, and
 * deterministic to the bit.
 *
 * <h2>The model</h2>
 *
 * <ul>
 *   <li><b>Traffic</b> ({@link dev.speechscale.simulator.Traffic}): Poisson arrivals at a rate that
 *       is constant within each interval of a trace or each second of a built-in shape, or a
 *       recorded list of arrival times; generated lazily, so memory never grows with the trace.
 *   <li><b>Router</b>: least outstanding requests over in-service instances, ties to the one that
 *       has waited longest (the local platform's router breaks ties round-robin).
 *   <li><b>Instance</b> ({@link dev.speechscale.simulator.InstanceModel}): the admission gate
 *       ({@code queue_max_depth} in flight, then an immediate 503), FIFO over a number of slots
 *       derived from the measured throughput (X_sat: the plan's X(C_scale_max) when given, else the
 *       plateau of the ladder, the median of its rungs at N ≥ 2 × slots), service times from the
 *       measured distribution, deadline shedding as the server does it (a request whose first byte
 *       cannot come within MAX_REQUEST_AGE_S is shed before it starts), TTFAB = queue wait +
 *       first-byte time, the first-byte time depending on how many requests the instance holds when
 *       the request arrives (each rung's mean TTFAB minus its closed-loop wait, interpolated
 *       between rungs; {@link dev.speechscale.simulator.FirstByte}). Each 503 at the gate can take
 *       a measured share of the instance ({@link dev.speechscale.simulator.RefusalCost}: seconds of
 *       the instance per refusal, from {@code validate --live}); none unless given.
 *   <li><b>Metrics</b>: ConcurrentRequestsPerModel sampled every second as in flight on in-service
 *       instances per in-service instance (as the local platform samples it),
 *       InvocationsPerInstance and a busy-slot percentage for the rival policies; read by the
 *       policy after a configurable publication delay.
 *   <li><b>Scaling</b>: {@code scaling}'s {@code ScalingEngine} evaluated every simulated second,
 *       the same code as the local platform's autoscaler. A new instance comes into service after a
 *       delay drawn (seeded) from the ttotal artifacts' desired_set → in_service, one per ttotal
 *       run given; a scale-in first cancels instances still starting (newest first), then drains
 *       the in-service instance holding the fewest requests: it takes no new requests and finishes
 *       what it holds.
 * </ul>
 *
 * <h2>Why it is fast</h2>
 *
 * A request is never an object. Each instance is a row of primitive arrays: its slots' next-free
 * times (the Lindley recursion of a FIFO queue, {@code start = max(arrival, earliest free slot)},
 * exact for FIFO with any number of slots), and a min-heap of its requests' end times. An indexed
 * heap over instances, keyed by each one's next end, retires finished requests lazily before each
 * arrival without touching idle instances; the router's least-loaded instance comes from buckets of
 * instances by outstanding count, O(1) per request. Per-minute TTFAB percentiles come from a fixed
 * log-bucket histogram (1.6 % buckets) reset every minute. Memory is the fleet and the requests in
 * flight, never the trace.
 *
 * <h2>What is approximate</h2>
 *
 * <ul>
 *   <li>Deadline shedding is decided at arrival (under FIFO the start time is known then) and the
 *       shed request gives its place back at once; the server holds it until its latest useful
 *       start. The server's first-byte estimate is a moving average; the model uses the mean.
 *   <li>Service times are independent draws from the uncontended distribution scaled to the
 *       measured saturated throughput; contention effects beyond that (a GPU slowing under a deeper
 *       batch, CPU steal) are only in the model as far as the throughput curve shows them.
 *   <li>Start-up delays are the measured ones, as many as ttotal runs were given; a real fleet's
 *       start-ups vary more than a few runs show.
 *   <li>The first-byte time at the lowest rung (N = 1, closed loop) is an instance kept 100 % busy;
 *       an idle instance's first byte can be faster (a CPU quota not yet spent), and no rung
 *       measures it.
 *   <li>Metrics are sampled at whole seconds and the policy evaluated once per second.
 * </ul>
 */
package dev.speechscale.simulator;
